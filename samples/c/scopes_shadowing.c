// Exercises: block scope and shadowing (globals shadowed by locals, nested
// blocks, for-loop variables, function parameters), lifetime of automatic
// variables per iteration, `extern` declarations inside a block, and main
// falling off its closing brace without a return (status 0 in C99+).
#include <stdio.h>

int x = 1;
static int depth = 0;

static int f(int x) {
    x *= 10;  /* the parameter, not the global */
    {
        int x = 5;
        x++;
        printf("  f inner x=%d\n", x);
    }
    return x;
}

static int counter(void) {
    int fresh = 0;  /* reinitialized every call */
    fresh++;
    return fresh;
}

int main(void) {
    printf("global x=%d\n", x);
    int x = 2;
    printf("local x=%d\n", x);
    {
        int x = 3;
        printf("block x=%d\n", x);
        {
            extern int x;  /* refers to the global again */
            printf("extern x=%d\n", x);
            x = 100;
        }
        printf("block x still %d\n", x);
    }
    printf("local x=%d, f(x)=%d\n", x, f(x));
    {
        extern int x;
        printf("global now %d\n", x);
    }
    for (int x = 0; x < 3; x++) {
        int y = x * 2;  /* a new y each iteration */
        printf("loop x=%d y=%d\n", x, y);
    }
    printf("after loop x=%d\n", x);
    int i = 100;
    for (int i = 0; i < 2; i++) {
        for (int i = 5; i < 7; i++) printf("inner i=%d ", i);
        printf("outer i=%d\n", i);
    }
    printf("function-scope i=%d\n", i);
    printf("counter %d %d\n", counter(), counter());
    int sum = 0;
    for (int k = 0; k < 4; k++) {
        int acc;
        acc = k * k;
        sum += acc;
    }
    printf("sum=%d depth=%d\n", sum, depth);
    if (x == 2) {
        int x = 7;
        printf("if-block x=%d\n", x);
    }
    switch (x) {
    case 2: {
        int x = 9;
        printf("switch-block x=%d\n", x);
        break;
    }
    }
    printf("main falls off the end\n");
}
