// Part of the counters multi-file sample: the event bus.
#include "counters.h"

int total_events;
listener listeners[4];
int nlisteners;
static int next_serial_value = 100;
static int counter(void) { return next_serial_value++; }

void add_listener(listener l) {
    if (nlisteners < 4) listeners[nlisteners++] = l;
}

void emit(const char *event, int value) {
    if (total_events < MAX_EVENTS) event_log[total_events] = value;
    total_events++;
    for (int i = 0; i < nlisteners; i++) listeners[i](event, value);
}

int next_serial(void) { return counter(); }
