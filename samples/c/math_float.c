// Exercises: math.h float versions (sqrtf expf logf sinf cosf tanf powf
// atan2f fabsf floorf ceilf fmodf roundf truncf fminf fmaxf hypotf) computed
// in float and printed with %.9g, alongside the double results.
#include <stdio.h>
#include <math.h>

int main(void) {
    float xs[] = {0.5f, 1.0f, 2.0f, 3.7f, 10.0f, 0.001f, 123.456f};
    for (int i = 0; i < 7; i++) {
        float x = xs[i];
        printf("x=%.9g\n", x);
        printf("  sqrtf %.9g expf %.9g logf %.9g log10f %.9g\n", sqrtf(x), expf(x), logf(x), log10f(x));
        printf("  sinf %.9g cosf %.9g tanf %.9g atanf %.9g\n", sinf(x), cosf(x), tanf(x), atanf(x));
        printf("  powf(x,2.5f) %.9g cbrtf %.9g tanhf %.9g\n", powf(x, 2.5f), cbrtf(x), tanhf(x));
        printf("  double sqrt %.17g vs (double)sqrtf %.17g\n", sqrt(x), (double)sqrtf(x));
    }
    float rs[] = {2.5f, -2.5f, 0.49999997f, -7.7f, 1e7f + 0.5f};
    for (int i = 0; i < 5; i++) {
        float r = rs[i];
        printf("r=%.9g floorf %.9g ceilf %.9g roundf %.9g truncf %.9g fabsf %.9g\n", r, floorf(r), ceilf(r),
               roundf(r), truncf(r), fabsf(r));
    }
    printf("fmodf(7.5,2)=%.9g fmodf(-7.5,2)=%.9g\n", fmodf(xs[3] * 2, 2.0f), fmodf(-xs[3] * 2, 2.0f));
    printf("atan2f(1,-1)=%.9g hypotf(3,4)=%.9g\n", atan2f(xs[1], -xs[1]), hypotf(3.0f * xs[1], 4.0f));
    printf("fminf %.9g fmaxf %.9g\n", fminf(xs[0], xs[2]), fmaxf(xs[0], xs[2]));
    float acc = 0.0f;
    for (int k = 1; k <= 20000; k++) acc += 1.0f / ((float)k * (float)k);
    printf("float basel partial %.9g sqrtf(6s) %.9g\n", acc, sqrtf(6.0f * acc));
    float t = 0.0f;
    for (int k = 0; k < 500; k++) t += sinf(k * 0.01f) * expf(-k * 0.001f);
    printf("float trig sum %.9g\n", t);
    float g = 1.0f;
    for (int k = 0; k < 30; k++) g = cosf(g);
    printf("fixed point of cosf %.9g\n", g);
    return 0;
}
