// Shared declarations for the counters multi-file sample.
#ifndef COUNTERS_H
#define COUNTERS_H

#define MAX_EVENTS 16

typedef void (*listener)(const char *event, int value);

extern int total_events;
extern int event_log[MAX_EVENTS];
extern listener listeners[];
extern int nlisteners;

void emit(const char *event, int value);
void add_listener(listener l);
int next_serial(void);
int log_next_serial(void);
void log_dump(void);

#endif
