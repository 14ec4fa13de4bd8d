// Issue 12, compile-time errors: a struct member may appear in a data clause, "However, the
// struct variable itself must be automatic, static or global, that is, not accessed via a
// pointer" (OpenACC 2.0 §2.6.5). A heap-allocated grid whose field is put on the device with
// `enter data copyin(g->cells[0:n])` is refused; the member of a local struct (`box.cells`) is
// accepted.
// expect-exit: 2
// expect-stderr: error[directive]: `g->cells[0:g->n]` is a member of a struct reached through a pointer
// expect-stderr: struct_member_via_pointer_enter_data.c:21:31
#include <stdio.h>
#include <stdlib.h>

struct grid {
    int n;
    double cells[64];
};

static void upload(struct grid *g, struct grid box)
{
#pragma acc enter data copyin(box.cells)
#pragma acc exit data delete(box.cells)
#pragma acc enter data copyin(g->cells[0:g->n]) /* expect: compile-error */
}

int main(void)
{
    struct grid *g = calloc(1, sizeof *g);
    g->n = 64;
    upload(g, *g);
    printf("%d\n", g->n);
    free(g);
    return 0;
}
