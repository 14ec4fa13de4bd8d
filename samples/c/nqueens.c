// Exercises: N-queens by backtracking with bitmasks for N = 1..9, printing
// solution counts and the first solution board for N = 6 and N = 8.
#include <stdio.h>

static int board[16];
static int first_found;

static long solve(int n, int row, unsigned cols, unsigned d1, unsigned d2, int print) {
    if (row == n) {
        if (print && !first_found) {
            first_found = 1;
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < n; c++) putchar(board[r] == c ? 'Q' : '.');
                putchar('\n');
            }
        }
        return 1;
    }
    long count = 0;
    unsigned avail = ~(cols | d1 | d2) & ((1u << n) - 1);
    while (avail) {
        unsigned bit = avail & -avail;
        avail ^= bit;
        board[row] = __builtin_ctz(bit);
        count += solve(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1, print);
    }
    return count;
}

int main(void) {
    for (int n = 1; n <= 9; n++) {
        first_found = 0;
        int print = (n == 6 || n == 8);
        if (print) printf("first solution for n=%d:\n", n);
        printf("n=%d solutions=%ld\n", n, solve(n, 0, 0, 0, 0, print));
    }
    return 0;
}
