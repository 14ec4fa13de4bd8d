// Part of the counters multi-file sample: the event log.
#include <stdio.h>
#include "counters.h"

int event_log[MAX_EVENTS];
static int next_serial_value = 500;
static int counter(void) { next_serial_value += 5; return next_serial_value; }

int log_next_serial(void) { return counter(); }

void log_dump(void) {
    printf("log (%d events):", total_events);
    for (int i = 0; i < total_events && i < MAX_EVENTS; i++) printf(" %d", event_log[i]);
    printf("\n");
}
