// Exercises: variadic functions with stdarg.h: va_start/va_arg/va_end,
// default argument promotions (char and short arrive as int, float as
// double), va_copy, forwarding a va_list to vsnprintf/vprintf, and a
// sentinel-terminated argument list.
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

static int sum_ints(int count, ...) {
    va_list ap;
    va_start(ap, count);
    int s = 0;
    for (int i = 0; i < count; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static double mean(int count, ...) {
    va_list ap, again;
    va_start(ap, count);
    va_copy(again, ap);
    double s = 0;
    for (int i = 0; i < count; i++) s += va_arg(ap, double);
    double mx = -1e300;
    for (int i = 0; i < count; i++) {
        double v = va_arg(again, double);
        if (v > mx) mx = v;
    }
    va_end(again);
    va_end(ap);
    printf("  (max was %g)\n", mx);
    return s / count;
}

static size_t concat(char *out, size_t cap, ...) {
    va_list ap;
    va_start(ap, cap);
    out[0] = '\0';
    size_t len = 0;
    const char *s;
    while ((s = va_arg(ap, const char *)) != NULL) {
        size_t n = strlen(s);
        if (len + n + 1 > cap) break;
        memcpy(out + len, s, n + 1);
        len += n;
    }
    va_end(ap);
    return len;
}

static int logf_(const char *level, const char *fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("[%s] %s (%d chars)\n", level, buf, n);
    return n;
}

static void vp(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

static void promoted(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int c = va_arg(ap, int);        /* passed a char */
    int sh = va_arg(ap, int);       /* passed a short */
    double f = va_arg(ap, double);  /* passed a float */
    long long ll = va_arg(ap, long long);
    unsigned u = va_arg(ap, unsigned);
    va_end(ap);
    printf("promoted: c=%d sh=%d f=%.9g ll=%lld u=%u\n", c, sh, f, ll, u);
}

int main(void) {
    printf("sum_ints: %d %d %d\n", sum_ints(0), sum_ints(3, 1, 2, 3), sum_ints(5, 10, -20, 30, -40, 50));
    printf("mean:\n");
    double m = mean(4, 1.5, 2.5, 10.0, -3.0);
    printf("  = %.17g\n", m);
    char buf[32];
    size_t len = concat(buf, sizeof buf, "alpha", "-", "beta", "-", "gamma", (const char *)NULL);
    printf("concat: %s (%zu)\n", buf, len);
    len = concat(buf, 8, "abc", "def", "ghi", (const char *)NULL);
    printf("concat capped: %s (%zu)\n", buf, len);
    logf_("info", "%d items, %.2f%% done, name=%s", 42, 99.5, "job");
    logf_("warn", "%s", "a message long enough to be interesting but not truncated");
    vp("vprintf: %05d|%-6s|%x\n", 42, "ab", 255u);
    char c = 'A';
    short sh = -1234;
    float f = 0.1f;
    promoted(5, c, sh, f, -5000000000LL, 4000000000u);
    return 0;
}
