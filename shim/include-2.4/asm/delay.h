/* asm/delay.h - see linux/delay.h */
#include <linux/delay.h>
