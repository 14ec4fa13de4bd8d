// Issue 14 (file I/O): under --sandbox a program opens only what --allow-read/--allow-write
// grant. Here nothing is granted: fopen returns NULL with errno EACCES, as the kernel refuses a
// file without permission, so the program's own error handling runs ("Permission denied");
// a file that is not there is refused the same way (a refused place does not tell which).
// accsim-flags: --sandbox
// expect-exit: 1
// expect-stderr: samples/regress/data/lab_matrix.txt: Permission denied
// expect-stderr: results.txt: Permission denied
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(void) { /* expect: exit-status */
    FILE *in = fopen("samples/regress/data/lab_matrix.txt", "r");
    if (!in)
        perror("samples/regress/data/lab_matrix.txt");
    FILE *none = fopen("samples/regress/data/no_such_file.txt", "r");
    printf("missing file: %s, errno %d (%s)\n", none ? "opened" : "NULL", errno, strerror(errno));
    FILE *out = fopen("results.txt", "w");
    if (!out) {
        perror("results.txt");
        return 1;
    }
    fputs("written\n", out);
    fclose(out);
    return 0;
}
