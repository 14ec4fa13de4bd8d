// Exercises: time(), clock(), gettimeofday() and clock_gettime() used only
// to measure an elapsed interval; the values themselves are never printed,
// only checks that are true on every run.
#include <stdio.h>
#include <time.h>
#include <sys/time.h>

static double now_tv(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}

static double now_ts(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
    time_t t0 = time(NULL);
    clock_t c0 = clock();
    double w0 = now_tv();
    double m0 = now_ts();
    volatile double sink = 0;
    for (int i = 0; i < 200000; i++) sink += i * 0.5;
    double m1 = now_ts();
    double w1 = now_tv();
    clock_t c1 = clock();
    time_t t1 = time(NULL);
    printf("work result %.1f\n", sink);
    printf("time elapsed >= 0: %d\n", difftime(t1, t0) >= 0);
    printf("clock elapsed >= 0: %d\n", (double)(c1 - c0) / CLOCKS_PER_SEC >= 0);
    printf("gettimeofday elapsed >= 0: %d\n", w1 - w0 >= 0);
    printf("clock_gettime elapsed >= 0: %d\n", m1 - m0 >= 0);
    printf("time after 2020: %d\n", t0 > 1577836800);
    printf("CLOCKS_PER_SEC = %ld\n", (long)CLOCKS_PER_SEC);
    struct timespec res;
    printf("clock_getres ok: %d\n", clock_getres(CLOCK_MONOTONIC, &res) == 0);
    time_t t2;
    time(&t2);
    printf("time(&t) consistent: %d\n", t2 >= t0);
    return 0;
}
