/*
 * tty_core.c - the 2.4 tty layer of the sandbox (drivers/tty-core/legacy)
 * does what 2.4.0's did, with a driver over no hardware
 * (kernel/fake_tty.c): the flip buffer delivered at the next tick (at
 * once on a low_latency tty, again later while TTY_DONT_FLIP is held),
 * delivered before a tty closing is freed, hangups from keventd and
 * now, the driver's registry, termios and flow control, throttling by
 * the line discipline, write wakeups; and the records of it all.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <shim/test.h>
#include <tty-core/record.h>
#include "suite.h"
#include "k24.h"

static void setup(void)
{
	shim_clock_virtual();
	cr_assert_eq(fk_init(), fk_major(), "a free major is returned");
	cr_assert_gt(fk_major(), 0);
}

static void teardown(void)
{
	shim_quiesce();
	cr_assert_eq(fk_exit(), 0);
	shim_quiesce();
	cr_assert_eq(shim_kmalloc_outstanding(), 0,
		     "the tty layer left memory behind");
}

TestSuite(tty_core, .init = setup, .fini = teardown, .timeout = SUITE_TIMEOUT);

static struct tty_record record_of(const char *name)
{
	struct tty_record r;

	cr_assert_eq(fk_record(name, &r), 0, "no record of %s", name);
	return r;
}

Test(tty_core, opens_and_closes_are_counted_and_the_slot_freed)
{
	struct fk_stats st;
	struct tty_record r;

	cr_assert_eq(fk_open(0, 1), 0);
	cr_assert_eq(fk_open(1, 1), 0);
	cr_assert_eq(fk_tty_count(1), 2);
	fk_close(0);
	fk_close(1);
	cr_assert_eq(fk_tty_count(1), 0, "the last close freed the tty");
	r = record_of("ttyF1");
	cr_assert_eq(r.opens, 2);
	cr_assert_eq(r.closes, 2);
	fk_port_stats(1, &st);
	cr_assert_eq(st.opens, 2);
	cr_assert_eq(st.closes, 2);
}

Test(tty_core, received_bytes_reach_the_discipline_at_the_next_tick)
{
	char buf[16];
	struct tty_record r;
	u64 digest = TTY_RECORD_DIGEST_INIT;
	const char *p;

	cr_assert_eq(fk_open(0, 0), 0);
	fk_rx(0, "hello", 5);
	r = record_of("ttyF0");
	cr_assert_eq(r.rx_bytes, 0, "tq_timer runs at the next tick");
	shim_quiesce();
	r = record_of("ttyF0");
	cr_assert_eq(r.rx_bytes, 5);
	for (p = "hello"; *p; p++)
		digest = tty_record_digest(digest, *p);
	cr_assert_eq(r.rx_digest, digest);
	cr_assert_eq(fk_read(0, buf, sizeof(buf)), 5);
	cr_assert_eq(memcmp(buf, "hello", 5), 0);
	cr_assert_eq(fk_read(0, buf, sizeof(buf)), -11, "O_NONBLOCK: -EAGAIN");
	fk_close(0);
}

/*
 * A break or an overrun is its flag: the character in its slot is none
 * (2.4.0's serial.c leaves there what the flip buffer held before), so
 * the digest does not take it; a parity error's character it does.
 */
Test(tty_core, the_digest_takes_a_break_or_an_overrun_by_its_flag)
{
	static const char flags[] = { 0, 1, 2, 3, 4 };
	struct tty_record a, b;

	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_open(1, 1), 0);
	fk_rx_flags(0, "abcde", flags, 5);
	fk_rx_flags(1, "aXcdY", flags, 5);
	shim_quiesce();
	a = record_of("ttyF0");
	b = record_of("ttyF1");
	cr_assert_eq(a.rx_bytes, 5);
	cr_assert_eq(a.rx_flagged, 4);
	cr_assert_eq(a.rx_digest, b.rx_digest,
		     "a break's or an overrun's character is no observable");
	fk_rx_flags(0, "p", flags + 3, 1);
	fk_rx_flags(1, "q", flags + 3, 1);
	shim_quiesce();
	cr_assert_neq(record_of("ttyF0").rx_digest,
		      record_of("ttyF1").rx_digest,
		      "a parity error's character is");
	fk_close(0);
	fk_close(1);
}

Test(tty_core, a_low_latency_tty_delivers_at_once)
{
	cr_assert_eq(fk_open(0, 0), 0);
	fk_low_latency(0, 1);
	fk_rx(0, "now", 3);
	cr_assert_eq(record_of("ttyF0").rx_bytes, 3);
	fk_close(0);
}

Test(tty_core, a_flip_held_by_a_reader_goes_round_again)
{
	cr_assert_eq(fk_open(0, 0), 0);
	fk_tty_flag(0, FK_TTY_DONT_FLIP, 1);
	fk_rx(0, "later", 5);
	shim_quiesce();
	cr_assert_eq(record_of("ttyF0").rx_bytes, 0,
		     "TTY_DONT_FLIP: flush_to_ldisc queued itself again");
	fk_tty_flag(0, FK_TTY_DONT_FLIP, 0);
	shim_quiesce();
	cr_assert_eq(record_of("ttyF0").rx_bytes, 5);
	fk_close(0);
}

Test(tty_core, a_tty_closing_runs_its_pending_flip_before_it_is_freed)
{
	struct tty_record r;

	cr_assert_eq(fk_open(0, 2), 0);
	fk_rx(2, "last words", 10);
	/* no tick between: release_dev() runs tq_timer itself */
	fk_close(0);
	r = record_of("ttyF2");
	cr_assert_eq(r.rx_late, 10,
		     "flush_to_ldisc() ran before the free, into a closed "
		     "discipline");
	cr_assert_eq(r.rx_bytes, 0, "lost, as n_tty lost them: not delivered");
}

Test(tty_core, a_hangup_runs_on_keventd_and_hangs_the_files_up)
{
	char buf[4];

	cr_assert_eq(fk_open(0, 3), 0);
	fk_hangup_file(0, 0);
	shim_quiesce();
	cr_assert(fk_hung_up(0));
	cr_assert_eq(record_of("ttyF3").hangups, 1);
	cr_assert_eq(fk_write(0, "x", 1), -5, "a hung-up file: -EIO");
	cr_assert_eq(fk_read(0, buf, sizeof(buf)), 0, "and end of file");
	{
		struct fk_stats st;

		fk_port_stats(3, &st);
		cr_assert_eq(st.hangups, 1);
	}
	fk_close(0);
}

Test(tty_core, vhangup_hangs_up_at_once)
{
	cr_assert_eq(fk_open(0, 3), 0);
	fk_hangup_file(0, 1);
	cr_assert(fk_hung_up(0));
	cr_assert_eq(record_of("ttyF3").hangups, 1);
	fk_close(0);
}

Test(tty_core, a_driver_with_a_tty_open_cannot_go)
{
	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_exit(), -16, "-EBUSY");
	fk_close(0);
}

Test(tty_core, termios_changes_reach_the_driver_unless_locked)
{
	struct fk_stats st;
	int baud;

	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_set_speed(0, 115200, &baud), 0);
	cr_assert_eq(baud, 115200);
	fk_port_stats(0, &st);
	cr_assert_eq(st.set_termios, 1);
	cr_assert_eq(st.baud, 115200, "tty_get_baud_rate() in set_termios");
	cr_assert_eq(fk_lock_speed(0), 0);
	cr_assert_eq(fk_set_speed(0, 9600, &baud), 0);
	cr_assert_eq(baud, 115200, "a locked speed keeps its value");
	fk_close(0);
}

Test(tty_core, flow_control_stops_and_starts_the_driver)
{
	struct fk_stats st;

	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_tcxonc(0, 0), 0); /* TCOOFF */
	cr_assert_eq(fk_tcxonc(0, 0), 0);
	cr_assert_eq(fk_tcxonc(0, 1), 0); /* TCOON */
	fk_port_stats(0, &st);
	cr_assert_eq(st.stops, 1, "stopped once");
	cr_assert_eq(st.starts, 1);
	cr_assert_eq(fk_tcxonc(0, 7), -22);
	fk_close(0);
}

Test(tty_core, the_discipline_throttles_the_driver_as_it_fills)
{
	static char big[4096];
	struct fk_stats st;
	struct tty_record r;

	int i;

	cr_assert_eq(fk_open(0, 0), 0);
	memset(big, 'x', sizeof(big));
	/* a flip half a tick, as a 2.4 driver gets them through */
	for (i = 0; i < 8; i++) {
		fk_rx(0, big, 512);
		shim_quiesce();
	}
	fk_port_stats(0, &st);
	cr_assert_eq(st.throttles, 1);
	r = record_of("ttyF0");
	cr_assert_eq(r.rx_bytes, 4096);
	cr_assert_eq(r.rx_dropped, 1, "room for N_TTY_BUF_SIZE - 1");
	while (fk_read(0, big, sizeof(big)) > 0)
		;
	fk_port_stats(0, &st);
	cr_assert_eq(st.unthrottles, 1, "a reader emptied it: unthrottled");
	fk_close(0);
}

Test(tty_core, the_transmitter_empty_wakes_the_writer_up)
{
	char data[100];

	memset(data, 'y', sizeof(data));
	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_write(0, data, sizeof(data)), 64, "the driver's room");
	cr_assert_eq(record_of("ttyF0").tx_bytes, 64);
	fk_tx(0);
	shim_quiesce();
	cr_assert_eq(record_of("ttyF0").write_wakeups, 1);
	fk_close(0);
}

Test(tty_core, what_a_driver_cannot_do_is_refused_or_ignored)
{
	cr_assert_eq(fk_open(0, 0), 0);
	cr_assert_eq(fk_setd(0, 5), -22, "no such line discipline");
	cr_assert_eq(fk_break(0), 0, "no break_ctl: TCSBRK succeeds");
	fk_close(0);
}
