/*
 * kernel24.c - what the shim gives 2.4 code besides the interrupt lock:
 * module parameters set as insmod set them, I/O regions and DMA channels
 * claimed as 2.4 claimed them, the sleep_on() family, signals counted,
 * the character device table, and I/O at a physical address.
 *
 * The 2.4 names are declared here as a 2.4 module sees them
 * (shim/include-2.4); this suite is built on the shim's own headers.
 */
#include <criterion/criterion.h>
#include <string.h>

#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/timer.h>
#include <shim/test.h>
#include <shim/io.h>
#include <shim/modparam.h>
#include "helpers.h"

TestSuite(kernel24, .timeout = SUITE_TIMEOUT);

/* --- module parameters: what MODULE_PARM() records ------------------------ */

static int io[4] = { 0x220, 0x240, 0, 0 };
static int irq = 5;
static unsigned char byte;
static short half;
static long word;
static char *name;
static char label[8] = "none";
static char *boards[3];

#define PARAM(var, type)                                           \
	static const struct shim_modparam __modparam_##var = {     \
		#var, type, (void *) &(var), sizeof(var)           \
	};                                                         \
	static const struct shim_modparam *__modparam_ptr_##var    \
		__attribute__((section("shim_modparams"), used)) = \
			&__modparam_##var

PARAM(io, "1-4i");
PARAM(irq, "i");
PARAM(byte, "b");
PARAM(half, "h");
PARAM(word, "l");
PARAM(name, "s");
PARAM(label, "c8");
PARAM(boards, "1-3s");

Test(kernel24, every_parameter_is_listed)
{
	const char *names[] = { "io",	"irq",	"byte",	 "half",
				"word", "name", "label", "boards" };
	unsigned int i, j, n = 0;

	for (i = 0; shim_modparam_get(i); i++)
		for (j = 0; j < ARRAY_SIZE(names); j++)
			if (!strcmp(shim_modparam_get(i)->name, names[j]))
				n++;
	cr_assert_eq(n, ARRAY_SIZE(names));
}

Test(kernel24, parameters_take_insmods_values)
{
	cr_assert_eq(shim_modparam_set("irq", "0x0b"), 0);
	cr_assert_eq(irq, 11, "hex, as strtoul(.., 0)");
	cr_assert_eq(shim_modparam_set("irq", "010"), 0);
	cr_assert_eq(irq, 8, "octal");
	cr_assert_eq(shim_modparam_set("irq", "-3"), 0);
	cr_assert_eq(irq, -3);
	cr_assert_eq(shim_modparam_set("byte", "0x1ff"), 0);
	cr_assert_eq(byte, 0xff, "a byte keeps its byte");
	cr_assert_eq(shim_modparam_set("half", "70000"), 0);
	cr_assert_eq(half, (short) 70000);
	cr_assert_eq(shim_modparam_set("word", "123456789"), 0);
	cr_assert_eq(word, 123456789);
	cr_assert_eq(shim_modparam_set("name", "board"), 0);
	cr_assert_str_eq(name, "board",
			 "a string: the variable points to a copy");
	cr_assert_eq(shim_modparam_set("label", "abcdefg"), 0);
	cr_assert_str_eq(label, "abcdefg");
}

Test(kernel24, an_array_takes_values_in_order_and_keeps_what_is_skipped)
{
	cr_assert_eq(shim_modparam_set("io", "0x300,,0x320"), 0);
	cr_assert_eq(io[0], 0x300);
	cr_assert_eq(io[1], 0x240, "an empty value leaves its slot alone");
	cr_assert_eq(io[2], 0x320);
}

Test(kernel24, what_insmod_refused_is_refused)
{
	cr_assert_eq(shim_modparam_set("nosuch", "1"), -ENOENT);
	cr_assert_eq(shim_modparam_set("io", "1,2,3,4,5"), -EINVAL,
		     "more values than 1-4 allows");
	cr_assert_eq(shim_modparam_set("irq", "5x"), -EINVAL);
	cr_assert_eq(shim_modparam_set("irq", ""), -EINVAL);
	cr_assert_eq(shim_modparam_set("label", "eightchr"), -EINVAL,
		     "c8 holds seven characters and the NUL");
}

Test(kernel24, a_line_of_parameters_is_applied_in_turn)
{
	cr_assert_eq(shim_modparams_apply(" irq=7  io=0x100,0x108 "), 0);
	cr_assert_eq(irq, 7);
	cr_assert_eq(io[0], 0x100);
	cr_assert_eq(io[1], 0x108);
	cr_assert_eq(shim_modparams_apply("irq=9 bogus=1 byte=2"), -ENOENT,
		     "the first error is returned");
	cr_assert_eq(irq, 9);
	cr_assert_eq(byte, 2, "and the rest still set");
	cr_assert_eq(shim_modparams_apply("irq"), -EINVAL);
}

Test(kernel24, a_string_in_quotes_holds_commas_and_blanks)
{
	cr_assert_eq(shim_modparam_set("boards", "\"ec8/32,at\",0x2a0"), 0);
	cr_assert_str_eq(boards[0], "ec8/32,at");
	cr_assert_str_eq(boards[1], "0x2a0");
	cr_assert_eq(shim_modparams_apply("boards=\"a b\",,5 irq=4"), 0,
		     "a blank in quotes is the value's, not the line's");
	cr_assert_str_eq(boards[0], "a b");
	cr_assert_str_eq(boards[1], "0x2a0", "an empty element kept");
	cr_assert_str_eq(boards[2], "5");
	cr_assert_eq(irq, 4);
	cr_assert_eq(shim_modparam_set("boards", "\"open"), -EINVAL);
	cr_assert_eq(shim_modparam_set("boards", "\"a\"b"), -EINVAL,
		     "a quote closes an element");
	cr_assert_eq(shim_modparam_set("irq", "\"5\""), -EINVAL,
		     "a number is no text");
}

Test(kernel24, a_string_parameter_is_found_by_what_the_module_holds)
{
	char other[] = "sbox4";
	const char *which;
	int index;

	cr_assert_eq(shim_modparam_set("boards", "sbox4,0x2a0"), 0);
	cr_assert_eq(shim_modparam_string_of(boards[1], &which, &index), 0);
	cr_assert_str_eq(which, "boards");
	cr_assert_eq(index, 1);
	cr_assert_eq(shim_modparam_set("name", "board"), 0);
	cr_assert_eq(shim_modparam_string_of(name, &which, &index), 0);
	cr_assert_str_eq(which, "name");
	cr_assert_eq(index, 0);
	cr_assert_eq(shim_modparam_string_of(other, &which, &index), -ENOENT,
		     "the same text elsewhere is not the parameter");
}

/* --- regions, as 2.4's kernel/resource.c kept them -------------------------- */

struct resource;
extern struct resource ioport_resource, iomem_resource;
extern struct resource *__request_region(struct resource *parent,
					 unsigned long start, unsigned long n,
					 const char *name);
extern int __check_region(struct resource *parent, unsigned long start,
			  unsigned long n);
extern void __release_region(struct resource *parent, unsigned long start,
			     unsigned long n);
extern int request_dma(unsigned int dmanr, const char *device_id);
extern void free_dma(unsigned int dmanr);

Test(kernel24, a_region_claimed_is_refused_to_an_overlapping_request)
{
	char buf[128];

	cr_assert_not_null(__request_region(&ioport_resource, 0x220, 8, "a"));
	cr_assert_eq(__check_region(&ioport_resource, 0x224, 8), -EBUSY);
	cr_assert_null(__request_region(&ioport_resource, 0x21c, 8, "b"));
	cr_assert_not_null(__request_region(&ioport_resource, 0x228, 8, "c"),
			   "adjacent, not overlapping");
	cr_assert_eq(shim_regions_held(0, buf, sizeof(buf)), 2);
	cr_assert(strstr(buf, "a 0x220-0x227"), "%s", buf);
	__release_region(&ioport_resource, 0x220, 8);
	cr_assert_eq(__check_region(&ioport_resource, 0x220, 8), 0);
	__release_region(&ioport_resource, 0x228, 8);
	cr_assert_eq(shim_regions_held(0, buf, sizeof(buf)), 0);
}

Test(kernel24, memory_regions_are_another_space)
{
	cr_assert_not_null(
		__request_region(&iomem_resource, 0xd0000, 0x2000, "board"));
	cr_assert_eq(__check_region(&ioport_resource, 0xd0000 & 0xffff, 8), 0);
	cr_assert_eq(__check_region(&iomem_resource, 0xd1000, 16), -EBUSY);
	__release_region(&iomem_resource, 0xd0000, 0x2000);
}

Test(kernel24, releasing_what_was_not_claimed_is_said)
{
	shim_printk_clear();
	__release_region(&ioport_resource, 0x300, 8);
	{
		char log[512];

		shim_printk_read(log, sizeof(log));
		cr_assert(strstr(log, "Trying to free nonexistent resource"),
			  "%s", log);
	}
}

Test(kernel24, a_dma_channel_has_one_owner)
{
	cr_assert_eq(request_dma(3, "a"), 0);
	cr_assert_eq(request_dma(3, "b"), -EBUSY);
	cr_assert_eq(request_dma(4, "c"), -EBUSY, "4 cascades the controllers");
	cr_assert_eq(request_dma(9, "d"), -EINVAL);
	free_dma(3);
	cr_assert_eq(request_dma(3, "b"), 0);
	free_dma(3);
}

/* --- sleep_on() ---------------------------------------------------------------- */

extern void interruptible_sleep_on(wait_queue_head_t *q);
extern long interruptible_sleep_on_timeout(wait_queue_head_t *q,
					   signed long timeout);
extern void __global_cli(void);
extern int shim_global_irq_held(void);

static DECLARE_WAIT_QUEUE_HEAD(sleepers);
static int slept;

static int sleeper(void *unused)
{
	daemonize();
	interruptible_sleep_on(&sleepers);
	__atomic_store_n(&slept, 1, __ATOMIC_RELEASE);
	return 0;
}

Test(kernel24, sleep_on_sleeps_until_woken)
{
	start_kthread(sleeper, NULL);
	shim_quiesce();
	cr_assert_not(__atomic_load_n(&slept, __ATOMIC_ACQUIRE));
	wake_up_interruptible(&sleepers);
	shim_quiesce();
	cr_assert(__atomic_load_n(&slept, __ATOMIC_ACQUIRE));
}

Test(kernel24, sleep_on_timeout_returns_when_time_is_up)
{
	unsigned long start = jiffies;

	cr_assert_eq(interruptible_sleep_on_timeout(&sleepers, 2), 0);
	cr_assert(time_after_eq(jiffies, start + 2));
}

Test(kernel24, sleep_on_inside_cli_loses_the_lock_and_keeps_irqs_off)
{
	__global_cli();
	interruptible_sleep_on_timeout(&sleepers, 1);
	cr_assert_not(shim_global_irq_held(), "the sleep let it go");
	cr_assert(irqs_disabled(), "the caller's local state is back");
	local_irq_enable();
}

/* --- signals, devices, I/O ----------------------------------------------------- */

extern int kill_pg(int pgrp, int sig, int priv);
extern int kill_proc(int pid, int sig, int priv);

Test(kernel24, signals_are_counted_not_delivered)
{
	unsigned long before = shim_signals_sent(1);

	cr_assert_eq(kill_pg(12, 1, 1), 0);
	cr_assert_eq(kill_pg(0, 1, 1), -EINVAL, "no process group 0");
	cr_assert_eq(kill_proc(3, 1, 1), 0);
	cr_assert_eq(shim_signals_sent(1), before + 2);
}

extern int register_chrdev(unsigned int major, const char *name,
			   struct file_operations *fops);
extern int unregister_chrdev(unsigned int major, const char *name);

/* the shape of 2.4's struct miscdevice */
struct miscdevice {
	int minor;
	const char *name;
	struct file_operations *fops;
	struct miscdevice *next, *prev;
	void *devfs_handle;
};

extern int misc_register(struct miscdevice *misc);
extern int misc_deregister(struct miscdevice *misc);

Test(kernel24, what_a_module_registered_is_listed_for_a_user_to_open)
{
	struct file_operations *a = (struct file_operations *) 0x1000;
	struct file_operations *b = (struct file_operations *) 0x2000;
	struct miscdevice fixed = { 155, "fixed", a }, dyn = { 255, "dyn", b };
	unsigned int majors[8];
	int minors[8], n;

	cr_assert_eq(misc_register(&dyn), 0);
	cr_assert_eq(misc_register(&fixed), 0);
	cr_assert_eq(dyn.minor, 63, "dynamic minors from 63 down");
	n = shim_misc_minors(minors, ARRAY_SIZE(minors));
	cr_assert_eq(n, 2);
	cr_assert(minors[0] == 63 && minors[1] == 155, "by minor");
	cr_assert_eq(shim_misc_fops(155), a);
	cr_assert_eq(shim_misc_fops(63), b);
	cr_assert_null(shim_misc_fops(64));
	cr_assert_eq(shim_misc_minors(minors, 1), 1, "as many as asked");
	misc_deregister(&fixed);
	misc_deregister(&dyn);
	cr_assert_eq(shim_misc_minors(minors, ARRAY_SIZE(minors)), 0);
	cr_assert_eq(register_chrdev(48, "a", a), 0);
	n = shim_chrdev_majors(majors, ARRAY_SIZE(majors));
	cr_assert(n >= 1 && majors[n - 1] >= 48, "in order");
	while (n > 0 && majors[n - 1] != 48)
		n--;
	cr_assert(n > 0, "major 48 listed");
	unregister_chrdev(48, "a");
}

Test(kernel24, a_character_major_has_one_owner)
{
	struct file_operations *a = (struct file_operations *) 0x1000;
	struct file_operations *b = (struct file_operations *) 0x2000;
	int major;

	cr_assert_eq(register_chrdev(48, "a", a), 0);
	cr_assert_eq(register_chrdev(48, "b", b), -EBUSY);
	cr_assert_eq(shim_chrdev_fops(48), a);
	major = register_chrdev(0, "dyn", b);
	cr_assert(major > 0 && major != 48, "major 0 asks for a free one");
	cr_assert_eq(shim_chrdev_fops(major), b);
	cr_assert_eq(unregister_chrdev(48, "b"), -EINVAL, "not its name");
	cr_assert_eq(unregister_chrdev(48, "a"), 0);
	cr_assert_null(shim_chrdev_fops(48));
	unregister_chrdev(major, "dyn");
}

extern unsigned int shim_io_read_any(unsigned long addr, int size);
extern void shim_io_write_any(unsigned long addr, unsigned int val, int size);

static unsigned long last_phys;
static unsigned int last_val;

static unsigned int dev_read(unsigned long phys, int size)
{
	last_phys = phys;
	return 0x5a;
}

static void dev_write(unsigned long phys, unsigned int val, int size)
{
	last_phys = phys;
	last_val = val;
}

static const struct shim_io_ops mem_device = { .read = dev_read,
					       .write = dev_write };

Test(kernel24, a_physical_address_in_the_isa_hole_reaches_the_device)
{
	unsigned char host[4] = { 1, 2, 3, 4 };

	shim_io_register(&mem_device);
	cr_assert_eq(shim_io_read_any(0xd0010, 1), 0x5a);
	cr_assert_eq(last_phys, 0xd0010);
	shim_io_write_any(0xd0020, 0x33, 1);
	cr_assert_eq(last_phys, 0xd0020);
	cr_assert_eq(last_val, 0x33);
	cr_assert_eq(shim_io_read_any((unsigned long) &host[2], 1), 3,
		     "an address of the host's is memory");
	shim_io_register(NULL);
	cr_assert_eq(shim_io_read_any(0xd0010, 1), 0xff, "no device: floats");
}

/* 2.4 declared it in linux/tty.h, which 2.5 code here does not see */
extern void console_print(const char *s);

CHILD_SCENARIO(console_print_at_any_level)
{
	char log[256];

	/* even with the console at its quietest */
	shim_printk_set_console_level(0);
	shim_printk_clear();
	console_print("Digi board: straight to the console\n");
	shim_printk_read(log, sizeof(log));
	exit(strstr(log, "Digi board") ? 3 : 0);
}

Test(kernel24, console_print_goes_to_the_console_and_not_the_log)
{
	struct child_result res;

	run_child("console_print_at_any_level", NULL, &res);
	cr_assert(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		  "exit %d (3: it went to the log): %s",
		  WEXITSTATUS(res.status), res.out);
	assert_child_said(&res, "Digi board: straight to the console");
}
