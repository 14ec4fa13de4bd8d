/* 15_execution_modes.c — count how often each statement runs: the execution model made visible.
 *
 * Teaches: the gangs of a parallel region start in gang-redundant (GR), worker-single (WS),
 * vector-single (VS) mode: ONE vector lane of ONE worker in EACH gang runs the code, so a plain
 * statement runs num_gangs times (§1.2, §2.5.1). A `loop gang` switches to gang-partitioned (GP)
 * mode: each iteration runs once, on some gang. A `loop worker` spreads iterations over the
 * workers of a gang (WP); a `loop vector` over the lanes of a worker (VP) (§1.2, §2.7.2-§2.7.4).
 * A worker or vector loop met in GR mode is run by every gang, its iterations partitioned within
 * the gang, so it runs num_gangs * trip-count iterations; a `loop seq` in GR mode likewise runs
 * whole in every gang (§2.7.5). After a partitioned loop the threads are back in the enclosing
 * mode. A reduction on the parallel construct gives each GANG a private copy (§2.5.11).
 * Every count is made with `#pragma acc atomic update`, so no increment is lost.
 *
 * With num_gangs(4) num_workers(2) vector_length(8) the spec fixes every count:
 *   A GR,WS,VS statement at the start            4  = num_gangs
 *   B loop seq (3 trips) in GR mode             12  = 4 gangs * 3
 *   C loop worker (10 trips) in GR mode         40  = 4 gangs * 10
 *   D loop vector (10 trips) in GR mode         40  = 4 gangs * 10
 *   E loop gang body, WS,VS (6 trips)            6  = 6 iterations, each once
 *   F + loop worker body, WP,VS (3 trips)       18  = 6 * 3
 *   G   + loop vector body, WP,VP (5 trips)     90  = 6 * 3 * 5
 *   H loop gang body after the worker loop       6  = back in WS mode: once per gang iteration
 *   I loop gang worker vector (100 trips)      100  = each iteration once
 *   J GR,WS,VS statement at the end              4  = num_gangs again
 *   K parallel reduction(+) of 1 per gang        4  = one private copy per gang
 * A C compiler that ignores the directives runs the region once, as if num_gangs were 1
 * (4 -> 1, 12 -> 3, 40 -> 10, K -> 1): that output is NOT the expected one.
 *
 * Expected output: hand-written (from §1.2, §2.5.11, §2.7; see README.md).
 */
#include <stdio.h>

enum { A, B, C, D, E, F, G, H, I, J, NCOUNTS };

int main(void) {
    static const char *const what[NCOUNTS] = {
        "A GR,WS,VS statement at the start",
        "B loop seq (3 trips) in GR mode",
        "C loop worker (10 trips) in GR mode",
        "D loop vector (10 trips) in GR mode",
        "E loop gang body, WS,VS (6 trips)",
        "F + loop worker body, WP,VS (3 trips)",
        "G   + loop vector body, WP,VP (5 trips)",
        "H loop gang body after the worker loop",
        "I loop gang worker vector (100 trips)",
        "J GR,WS,VS statement at the end",
    };
    int counts[NCOUNTS] = {0};
    int gang_copies = 0;

#pragma acc parallel num_gangs(4) num_workers(2) vector_length(8) copy(counts) reduction(+:gang_copies)
    {
#pragma acc atomic update
        counts[A]++;
        gang_copies += 1;

#pragma acc loop seq
        for (int s = 0; s < 3; s++) {
#pragma acc atomic update
            counts[B]++;
        }

#pragma acc loop worker
        for (int j = 0; j < 10; j++) {
#pragma acc atomic update
            counts[C]++;
        }

#pragma acc loop vector
        for (int k = 0; k < 10; k++) {
#pragma acc atomic update
            counts[D]++;
        }

#pragma acc loop gang
        for (int i = 0; i < 6; i++) {
#pragma acc atomic update
            counts[E]++;
#pragma acc loop worker
            for (int j = 0; j < 3; j++) {
#pragma acc atomic update
                counts[F]++;
#pragma acc loop vector
                for (int k = 0; k < 5; k++) {
#pragma acc atomic update
                    counts[G]++;
                }
            }
#pragma acc atomic update
            counts[H]++;
        }

#pragma acc loop gang worker vector
        for (int i = 0; i < 100; i++) {
#pragma acc atomic update
            counts[I]++;
        }

#pragma acc atomic update
        counts[J]++;
    }

    for (int c = 0; c < NCOUNTS; c++) printf("%-40s %4d\n", what[c], counts[c]);
    printf("%-40s %4d\n", "K parallel reduction(+) of 1 per gang", gang_copies);
    return 0;
}
