// Exercises: recursion: naive and memoized Fibonacci, Ackermann (small
// arguments), mutual recursion (is_even/is_odd, Hofstadter F/M), Towers of
// Hanoi move counting, recursive gcd and power.
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long long memo[91];
static long long fib_memo(int n) {
    if (n < 2) return n;
    if (memo[n]) return memo[n];
    return memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
}

static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int M(int n);
static int F(int n) { return n == 0 ? 1 : n - M(F(n - 1)); }
static int M(int n) { return n == 0 ? 0 : n - F(M(n - 1)); }

static long hanoi_moves;
static void hanoi(int n, char from, char to, char via, int print) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to, print);
    hanoi_moves++;
    if (print) printf("move disk %d %c->%c\n", n, from, to);
    hanoi(n - 1, via, to, from, print);
}

static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }
static double power(double x, int n) {
    if (n == 0) return 1;
    if (n < 0) return 1 / power(x, -n);
    double h = power(x, n / 2);
    return n % 2 ? h * h * x : h * h;
}

static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

int main(void) {
    for (int i = 0; i <= 20; i += 4) printf("fib(%d)=%d\n", i, fib(i));
    printf("fib_memo(90)=%lld\n", fib_memo(90));
    for (int m = 0; m <= 2; m++)
        for (int n = 0; n <= 3; n++) printf("ack(%d,%d)=%d\n", m, n, ack(m, n));
    printf("ack(3,3)=%d\n", ack(3, 3));
    printf("is_even(10)=%d is_odd(7)=%d is_even(1001)=%d\n", is_even(10), is_odd(7), is_even(1001));
    printf("F:");
    for (int i = 0; i < 15; i++) printf(" %d", F(i));
    printf("\nM:");
    for (int i = 0; i < 15; i++) printf(" %d", M(i));
    printf("\n");
    hanoi(3, 'A', 'C', 'B', 1);
    hanoi_moves = 0;
    hanoi(16, 'A', 'C', 'B', 0);
    printf("hanoi(16) moves=%ld\n", hanoi_moves);
    printf("gcd(1071,462)=%u gcd(17,5)=%u\n", gcd(1071, 462), gcd(17, 5));
    printf("power(2,30)=%.0f power(2,-3)=%g power(1.5,7)=%.17g\n", power(2, 30), power(2, -3), power(1.5, 7));
    printf("depth(10000)=%d\n", depth(10000));
    return 0;
}
