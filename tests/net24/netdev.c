/*
 * netdev.c - the net device of 2.4.0 (drivers/net-core/): names from
 * patterns at registration, ifconfig up and down, frames received in
 * order through NET_RX_SOFTIRQ to the hook standing for the protocols,
 * the transmit queue with a driver that stops, refuses and wakes it,
 * and the watchdog calling tx_timeout() in virtual time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include <shim/test.h>
#include <net-core/net-core.h>
#include "suite.h"
#include "n24.h"

#define NET_XMIT_CN 2
#define NET_RX_DROP 1

static int registered[FN_DEVS];

static void reg(int i, const char *pattern, int timeo)
{
	cr_assert_eq(fn_register(i, pattern, timeo), 0, "register %s", pattern);
	registered[i] = 1;
}

static void unreg(int i)
{
	fn_unregister(i);
	registered[i] = 0;
}

static void setup(void)
{
	shim_clock_virtual();
	fn_received_clear();
	fn_hook_install();
}

static void teardown(void)
{
	int i;

	for (i = 0; i < FN_DEVS; i++)
		if (registered[i])
			unreg(i);
	fn_hook_remove();
	fn_set_backlog(300);
	shim_quiesce();
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "an sk_buff was left");
	cr_assert_eq(shim_kmalloc_outstanding(), 0, "memory was left");
}

TestSuite(netdev24, .init = setup, .fini = teardown, .timeout = SUITE_TIMEOUT);

Test(netdev24, patterns_name_devices_with_the_first_free_unit)
{
	reg(0, "eth%d", 0);
	reg(1, "eth%d", 0);
	reg(2, "isdn%d", 0);
	reg(3, "", 0);
	cr_assert_str_eq(fn_name(0), "eth0");
	cr_assert_str_eq(fn_name(1), "eth1");
	cr_assert_str_eq(fn_name(2), "isdn0");
	cr_assert_str_eq(fn_name(3), "eth2", "no name: eth%%d");
	cr_assert_eq(fn_lookup("isdn0"), 2);
	unreg(0);
	cr_assert_eq(fn_lookup("eth0"), -1);
	reg(0, "eth%d", 0);
	cr_assert_str_eq(fn_name(0), "eth0", "a freed unit is taken again");
}

Test(netdev24, a_name_taken_is_refused)
{
	reg(0, "isdn%d", 0);
	cr_assert_eq(fn_register(1, "isdn0", 0), -5, "-EIO, as 2.4.0 said");
	cr_assert_eq(fn_lookup("isdn0"), 0);
}

Test(netdev24, up_and_down_call_open_and_stop_and_set_running)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	cr_assert_not(fn_running(0));
	cr_assert_eq(fn_open(0), 0);
	cr_assert(fn_running(0));
	cr_assert_eq(fn_open(0), 0, "already up");
	cr_assert_eq(fn_close(0), 0);
	cr_assert_not(fn_running(0));
	fn_stats(0, &st);
	cr_assert_eq(st.opens, 1);
	cr_assert_eq(st.stops, 1);
}

Test(netdev24, received_frames_reach_the_hook_in_order_in_softirq_context)
{
	reg(0, "eth%d", 0);
	reg(1, "isdn%d", 0);
	fn_open(0);
	fn_open(1);
	cr_assert_eq(fn_rx(0, "one"), 0);
	cr_assert_eq(fn_rx(1, "two"), 0);
	cr_assert_eq(fn_rx(0, "three"), 0);
	shim_quiesce();
	cr_assert_str_eq(fn_received(), "eth0:0800:host:one;"
					"isdn0:0800:host:two;"
					"eth0:0800:host:three;");
}

Test(netdev24, a_burst_keeps_its_order)
{
	char want[512] = "";
	int k;

	reg(0, "eth%d", 0);
	fn_open(0);
	cr_assert_eq(fn_rx_burst(0, 20), 0);
	shim_quiesce();
	for (k = 0; k < 20; k++)
		sprintf(want + strlen(want), "eth0:0800:host:f%d;", k);
	cr_assert_str_eq(fn_received(), want);
}

Test(netdev24, a_full_backlog_drops_until_it_has_drained)
{
	struct net_core_counts before, after;

	reg(0, "eth%d", 0);
	fn_open(0);
	fn_set_backlog(2);
	net_core_counts(&before);
	cr_assert_eq(fn_rx_burst(0, 5), 2, "3 queued (qlen <= 2), 2 dropped");
	shim_quiesce();
	net_core_counts(&after);
	cr_assert_eq(fn_received_count(), 3);
	cr_assert_eq(after.rx_dropped - before.rx_dropped, 2);
	cr_assert_eq(fn_rx_burst(0, 1), 0, "drained: taken again");
	shim_quiesce();
	cr_assert_eq(fn_received_count(), 4);
}

Test(netdev24, without_a_hook_frames_are_counted_and_freed)
{
	struct net_core_counts before, after;

	reg(0, "eth%d", 0);
	fn_hook_remove();
	net_core_counts(&before);
	fn_rx(0, "lost");
	shim_quiesce();
	net_core_counts(&after);
	cr_assert_eq(after.rx_unclaimed - before.rx_unclaimed, 1);
	cr_assert_eq(fn_received_count(), 0);
}

Test(netdev24, a_frame_goes_to_the_driver_of_a_device_that_is_up)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	cr_assert_eq(fn_xmit(0, "down"), NET_XMIT_CN, "down: dropped");
	fn_open(0);
	cr_assert_eq(fn_xmit(0, "hello"), 0);
	fn_stats(0, &st);
	cr_assert_eq(st.xmits, 1);
	cr_assert_str_eq(st.tx_log, "hello;");
	cr_assert_eq(st.tx_bytes, 14 + 5);
}

Test(netdev24, a_stopped_queue_holds_frames_until_woken)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	fn_open(0);
	fn_mode(0, FN_TAKE_AND_STOP);
	fn_xmit(0, "a");
	cr_assert(fn_queue_stopped(0), "the ring is full");
	fn_xmit(0, "b");
	fn_xmit(0, "c");
	shim_quiesce();
	fn_stats(0, &st);
	cr_assert_str_eq(st.tx_log, "a;", "nothing sent while stopped");
	fn_mode(0, FN_TAKE);
	fn_wake(0);
	shim_quiesce();
	fn_stats(0, &st);
	cr_assert_str_eq(st.tx_log, "a;b;c;", "NET_TX_SOFTIRQ sent the rest");
	cr_assert_not(fn_queue_stopped(0));
}

Test(netdev24, qdisc_reset_drops_what_is_queued)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	fn_open(0);
	fn_mode(0, FN_TAKE_AND_STOP);
	fn_xmit(0, "a");
	fn_xmit(0, "b");
	fn_xmit(0, "c");
	shim_quiesce();
	fn_qdisc_reset(0);
	fn_mode(0, FN_TAKE);
	fn_wake(0);
	shim_quiesce();
	fn_stats(0, &st);
	cr_assert_str_eq(st.tx_log, "a;", "the frames queued were dropped");
}

Test(netdev24, a_refused_frame_is_requeued_at_the_head)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	fn_open(0);
	fn_mode(0, FN_BUSY);
	cr_assert_eq(fn_xmit(0, "x"), 0, "queued, not lost");
	fn_xmit(0, "y");
	fn_stats(0, &st);
	cr_assert_eq(st.refused, 1);
	cr_assert_eq(st.xmits, 0);
	fn_mode(0, FN_TAKE);
	fn_wake(0);
	shim_quiesce();
	fn_stats(0, &st);
	cr_assert_str_eq(st.tx_log, "x;y;", "the refused one first");
}

Test(netdev24, the_watchdog_calls_tx_timeout_once_stopped_too_long)
{
	struct fn_stats st;
	struct net_core_counts c;

	reg(0, "eth%d", 50);
	fn_open(0);
	fn_mode(0, FN_TAKE_AND_STOP);
	fn_xmit(0, "stuck");
	cr_assert(fn_queue_stopped(0));
	shim_clock_advance(50);
	fn_stats(0, &st);
	cr_assert_eq(st.timeouts, 0, "not longer than watchdog_timeo yet");
	shim_clock_advance(50);
	fn_stats(0, &st);
	cr_assert_eq(st.timeouts, 1, "stopped for 100 ticks > 50");
	cr_assert_not(fn_queue_stopped(0), "tx_timeout() woke it");
	net_core_counts(&c);
	cr_assert_geq(c.tx_timeouts, 1);
}

Test(netdev24, the_watchdog_leaves_a_running_queue_alone)
{
	struct fn_stats st;

	reg(0, "eth%d", 20);
	fn_open(0);
	fn_xmit(0, "fine");
	shim_clock_advance(200);
	fn_stats(0, &st);
	cr_assert_eq(st.timeouts, 0);
}

Test(netdev24, down_stops_the_watchdog_and_drops_its_reference)
{
	char timers[256];

	reg(0, "eth%d", 50);
	cr_assert_eq(fn_refcnt(0), 1, "the list's");
	fn_open(0);
	cr_assert_eq(fn_refcnt(0), 2, "and the armed watchdog's");
	fn_close(0);
	cr_assert_eq(fn_refcnt(0), 1);
	shim_timers_pending(timers, sizeof(timers));
	cr_assert_null(strstr(timers, "dev_watchdog"), "%s", timers);
}

Test(netdev24, unregistering_a_running_device_takes_it_down_first)
{
	struct fn_stats st;

	reg(0, "eth%d", 0);
	reg(1, "eth%d", 0);
	fn_open(0);
	fn_open(1);
	fn_mode(0, FN_BUSY);
	fn_xmit(0, "waits");
	fn_stats(0, &st);
	cr_assert_eq(st.stops, 0);
	unreg(0);
	cr_assert_eq(fn_lookup("eth0"), -1);
	cr_assert_neq(fn_lookup("eth1"), -1);
	cr_assert_eq(net_core_skbs_held(NULL, 0), 0, "its queue freed");
}
