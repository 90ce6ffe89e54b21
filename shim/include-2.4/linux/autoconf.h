/* linux/autoconf.h - what `make config` wrote: see linux/config.h */
#include <linux/config.h>
