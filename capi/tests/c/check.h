/* The checks the C test programs share: CHECK (a call must return SM5_OK),
 * EXPECT (a condition, counted), EXPECT_FAIL (a call must fail with a
 * status and a message containing a text; long messages are cut in the
 * report). Each program sets `root` from its argument and prints `checks`. */
#ifndef SM5SIM_TEST_CHECK_H
#define SM5SIM_TEST_CHECK_H

#include "sm5sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *root;
static int checks;

#define CHECK(call)                                                           \
    do {                                                                      \
        sm5_status s_ = (call);                                               \
        if (s_ != SM5_OK) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, \
                    #call, sm5_status_name(s_), sm5_last_error_message());    \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define EXPECT(cond)                                                          \
    do {                                                                      \
        checks++;                                                             \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__,       \
                    #cond);                                                   \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* call fails with status want, and the message contains needle */
#define EXPECT_FAIL(call, want, needle)                                       \
    do {                                                                      \
        sm5_status s_ = (call);                                               \
        const char *m_ = sm5_last_error_message();                            \
        checks++;                                                             \
        if (s_ != (want) || strstr(m_, (needle)) == NULL) {                   \
            fprintf(stderr,                                                   \
                    "%s:%d: %s: expected %s with a message containing "       \
                    "\"%.200s\", got %s: %.400s\n",                           \
                    __FILE__, __LINE__, #call, sm5_status_name(want),         \
                    (needle), sm5_status_name(s_), m_);                       \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#endif
