// Exercises: unions: overlapping members, type punning float<->uint32 and
// double<->uint64 (IEEE-754 bit patterns), byte views, tagged unions.
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

union fbits { float f; uint32_t u; unsigned char b[4]; };
union dbits { double d; uint64_t u; };

enum kind { K_INT, K_DBL, K_STR };
struct value { enum kind k; union { int i; double d; const char *s; } as; };

static void show(struct value v) {
    switch (v.k) {
    case K_INT: printf("int %d\n", v.as.i); break;
    case K_DBL: printf("double %g\n", v.as.d); break;
    case K_STR: printf("string %s\n", v.as.s); break;
    }
}

int main(void) {
    float fs[] = {1.0f, -2.5f, 0.1f, 0.0f, -0.0f, 3.4028235e38f, 1e-45f};
    for (int i = 0; i < 7; i++) {
        union fbits x;
        x.f = fs[i];
        printf("%-14.9g 0x%08" PRIx32 " sign=%u exp=%3u mant=0x%06x bytes=%02x %02x %02x %02x\n", x.f, x.u,
               x.u >> 31, (x.u >> 23) & 0xff, x.u & 0x7fffff, x.b[0], x.b[1], x.b[2], x.b[3]);
    }
    union fbits y;
    y.u = 0x40490fdbu;
    printf("0x40490fdb as float = %.9g\n", y.f);
    y.u = 0x7f800000u;
    printf("0x7f800000 = %f\n", y.f);
    y.u += 1;
    printf("0x7f800001 is nan: %d\n", y.f != y.f);
    double ds[] = {1.0, 0.1, -1e300, 2.0 / 3.0};
    for (int i = 0; i < 4; i++) {
        union dbits z;
        z.d = ds[i];
        printf("%.17g -> 0x%016" PRIx64 "\n", z.d, z.u);
    }
    union dbits w;
    w.u = 0x3ff8000000000000ULL;
    printf("0x3ff8... = %g\n", w.d);
    /* fast inverse square root trick */
    float num = 4.0f;
    union fbits q;
    q.f = num;
    q.u = 0x5f3759df - (q.u >> 1);
    float r = q.f * (1.5f - 0.5f * num * q.f * q.f);
    printf("fast rsqrt(4) = %.9g\n", r);
    union { uint32_t word; uint16_t half[2]; uint8_t byte[4]; } e = {.word = 0x11223344};
    printf("halves %04x %04x bytes %02x %02x %02x %02x\n", e.half[0], e.half[1], e.byte[0], e.byte[1], e.byte[2], e.byte[3]);
    struct value vals[3] = {{K_INT, {.i = 42}}, {K_DBL, {.d = 2.75}}, {K_STR, {.s = "hi"}}};
    for (int i = 0; i < 3; i++) show(vals[i]);
    printf("sizeof value %zu\n", sizeof(struct value));
    return 0;
}
