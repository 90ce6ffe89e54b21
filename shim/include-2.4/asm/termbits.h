/*
 * asm/termbits.h - struct termios and its flags, i386's values in 2.4
 * (the same numbers the C library's <termios.h> uses on Linux).
 */
#ifndef _ASM24_TERMBITS_H
#define _ASM24_TERMBITS_H

typedef unsigned char cc_t;
typedef unsigned int speed_t;
typedef unsigned int tcflag_t;

#define NCCS 19
struct termios {
	tcflag_t c_iflag; /* input modes */
	tcflag_t c_oflag; /* output modes */
	tcflag_t c_cflag; /* control modes */
	tcflag_t c_lflag; /* local modes */
	cc_t c_line;	  /* line discipline */
	cc_t c_cc[NCCS];  /* control characters */
};

/* indexes of c_cc[] */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSWTC 7
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE 14
#define VLNEXT 15
#define VEOL2 16

/* c_iflag */
#define IGNBRK 01
#define BRKINT 02
#define IGNPAR 04
#define PARMRK 010
#define INPCK 020
#define ISTRIP 040
#define INLCR 0100
#define IGNCR 0200
#define ICRNL 0400
#define IUCLC 01000
#define IXON 02000
#define IXANY 04000
#define IXOFF 010000
#define IMAXBEL 020000

/* c_oflag */
#define OPOST 1
#define OLCUC 2
#define ONLCR 4
#define OCRNL 010
#define ONOCR 020
#define ONLRET 040
#define OFILL 0100
#define OFDEL 0200
#define NLDLY 0400
#define NL0 0
#define NL1 0400
#define CRDLY 03000
#define CR0 0
#define CR1 01000
#define CR2 02000
#define CR3 03000
#define TABDLY 014000
#define TAB0 0
#define TAB1 04000
#define TAB2 010000
#define TAB3 014000
#define XTABS 014000
#define BSDLY 020000
#define BS0 0
#define BS1 020000
#define VTDLY 040000
#define VT0 0
#define VT1 040000
#define FFDLY 0100000
#define FF0 0
#define FF1 0100000

/* c_cflag: the speed first (CBAUD, and CBAUDEX for those above 38400) */
#define CBAUD 0010017
#define B0 0
#define B50 01
#define B75 02
#define B110 03
#define B134 04
#define B150 05
#define B200 06
#define B300 07
#define B600 010
#define B1200 011
#define B1800 012
#define B2400 013
#define B4800 014
#define B9600 015
#define B19200 016
#define B38400 017
#define EXTA B19200
#define EXTB B38400
#define CSIZE 060
#define CS5 0
#define CS6 020
#define CS7 040
#define CS8 060
#define CSTOPB 0100
#define CREAD 0200
#define PARENB 0400
#define PARODD 01000
#define HUPCL 02000
#define CLOCAL 04000
#define CBAUDEX 010000
#define CIBAUD 002003600000
#define CMSPAR 010000000000
#define CRTSCTS 020000000000
#define B57600 010001
#define B115200 010002
#define B230400 010003
#define B460800 010004
#define B500000 010005
#define B576000 010006
#define B921600 010007
#define B1000000 010010
#define B1152000 010011
#define B1500000 010012
#define B2000000 010013
#define B2500000 010014
#define B3000000 010015
#define B3500000 010016
#define B4000000 010017

/* c_lflag */
#define ISIG 1
#define ICANON 2
#define XCASE 4
#define ECHO 010
#define ECHOE 020
#define ECHOK 040
#define ECHONL 0100
#define NOFLSH 0200
#define TOSTOP 0400
#define ECHOCTL 01000
#define ECHOPRT 02000
#define ECHOKE 04000
#define FLUSHO 010000
#define PENDIN 040000
#define IEXTEN 0100000

/* tcflow(), tcflush(), tcsetattr() */
#define TCOOFF 0
#define TCOON 1
#define TCIOFF 2
#define TCION 3
#define TCIFLUSH 0
#define TCOFLUSH 1
#define TCIOFLUSH 2
#define TCSANOW 0
#define TCSADRAIN 1
#define TCSAFLUSH 2

#endif /* _ASM24_TERMBITS_H */
