// Exercises: a program linked from main.c, bus.c and log.c: function
// pointers registered in one file and called from another, extern arrays
// and scalars (defined exactly once: gcc >= 10 defaults to -fno-common, so
// `int x;` in two files is a link error), and a file-static `next_serial_value` + `static int counter(void)` in
// both bus.c and log.c that must not be merged.
#include <stdio.h>
#include "counters.h"

static void print_listener(const char *event, int value) { printf("[main] %s=%d\n", event, value); }
static int sum;
static void sum_listener(const char *event, int value) { (void)event; sum += value; }

int main(void) {
    add_listener(print_listener);
    add_listener(sum_listener);
    for (int i = 1; i <= 5; i++) emit(i % 2 ? "odd" : "even", i * i);
    printf("total_events=%d sum=%d nlisteners=%d\n", total_events, sum, nlisteners);
    /* Argument evaluation order is unspecified (gcc goes right to left), so
       each stateful call gets its own statement. */
    int b1 = next_serial();
    int b2 = next_serial();
    int l1 = log_next_serial();
    int l2 = log_next_serial();
    printf("bus serials: %d %d, log serials: %d %d\n", b1, b2, l1, l2);
    log_dump();
    return 0;
}
