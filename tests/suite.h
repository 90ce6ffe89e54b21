/*
 * suite.h - what every Criterion suite of tests/ shares.
 *
 * Criterion has no default timeout: each suite takes this one, so that a
 * hang is a failure, not a stuck CI run.
 */
#ifndef _TESTS_SUITE_H
#define _TESTS_SUITE_H

#define SUITE_TIMEOUT 30 /* seconds: a hang is the failure */

#endif /* _TESTS_SUITE_H */
