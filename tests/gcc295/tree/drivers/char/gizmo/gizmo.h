/* gizmo.h - what the two files of the gizmo driver share */

int gizmo_count;	/* one variable for both files, as 2.95 had it */

extern inline int gizmo_twice(int x)
{
	return 2 * x;
}

#define gz_dbg(fmt, args...) printk(KERN_INFO "gizmo: " fmt "\n" , ## args)
#define GZ_TRACE(fmt, args...) \
	printk(KERN_INFO "gizmo: " __FUNCTION__ ": " fmt "\n" , ## args)

void gizmo_io_start(void);
