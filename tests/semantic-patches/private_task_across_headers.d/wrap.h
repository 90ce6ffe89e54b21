/* a header that only includes another: what it includes is seen too */
#include "ser.h"
