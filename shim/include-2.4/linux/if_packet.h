/* linux/if_packet.h - the class of a frame received (skb->pkt_type) */
#ifndef _LINUX24_IF_PACKET_H
#define _LINUX24_IF_PACKET_H

#define PACKET_HOST 0	   /* to us */
#define PACKET_BROADCAST 1 /* to all */
#define PACKET_MULTICAST 2 /* to a group */
#define PACKET_OTHERHOST 3 /* to someone else */
#define PACKET_OUTGOING 4  /* ours, going out */
#define PACKET_LOOPBACK 5  /* multicast or broadcast looped back */
#define PACKET_FASTROUTE 6

#endif /* _LINUX24_IF_PACKET_H */
