#ifndef _FUZZ_TIME_H
#define _FUZZ_TIME_H
typedef long time_t;
typedef long clock_t;
#define CLOCKS_PER_SEC ((clock_t)1000000)
extern clock_t clock(void);
extern time_t time(time_t *);
#endif
