// Exercises: _Bool and bool from stdbool.h: conversion of any nonzero value
// to 1, logical operators with short-circuit evaluation, bool arithmetic.
#include <stdio.h>
#include <stdbool.h>

static int calls = 0;
static bool touch(bool v) { calls++; return v; }

int main(void) {
    bool t = true, f = false;
    printf("true=%d false=%d sizeof(bool)=%zu\n", t, f, sizeof(bool));
    _Bool b1 = 42;
    _Bool b2 = 0.5;
    _Bool b3 = -0.0;
    _Bool b4 = (void *)&t != 0;
    printf("(_Bool)42=%d (_Bool)0.5=%d (_Bool)-0.0=%d ptr=%d\n", b1, b2, b3, b4);
    bool b5 = 256;  /* not truncated to 0 like a char would be */
    unsigned char c5 = (unsigned char)256;
    printf("bool 256=%d uchar 256=%d\n", b5, c5);
    bool inc = false;
    inc++;
    inc++;
    printf("false++ ++ = %d\n", inc);
    bool dec = true;
    dec--;
    printf("true-- = %d\n", dec);
    dec--;
    printf("false-- = %d\n", dec);
    printf("t+t+t = %d\n", t + t + t);
    printf("!5=%d !!5=%d !0=%d\n", !5, !!5, !0);
    printf("5&&3=%d 5||0=%d 0||0=%d 0&&x\n", 5 && 3, 5 || 0, 0 || 0);
    calls = 0;
    bool r = touch(false) && touch(true);
    printf("false && ... = %d calls=%d\n", r, calls);
    calls = 0;
    r = touch(true) || touch(false);
    printf("true || ... = %d calls=%d\n", r, calls);
    calls = 0;
    r = touch(true) && touch(false) || touch(true);
    printf("t&&f||t = %d calls=%d\n", r, calls);
    bool arr[5] = {1, 0, 1};
    int cnt = 0;
    for (int i = 0; i < 5; i++) cnt += arr[i];
    printf("count=%d\n", cnt);
    printf("comparison types: %d %d %zu\n", 3 < 4, 3 > 4, sizeof(3 < 4));
    bool x = true;
    x &= false;
    printf("x&=false -> %d\n", x);
    x |= 7;
    printf("x|=7 -> %d\n", x);
    x ^= 1;
    printf("x^=1 -> %d\n", x);
    return 0;
}
