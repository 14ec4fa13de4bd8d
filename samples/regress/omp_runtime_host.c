// Issue 12 item 8: the OpenMP runtime routines a host program calls, run as on one host thread
// (accsim's host is sequential; `#pragma omp` is ignored): thread queries, nesting levels, the
// schedule, simple and nestable locks (OpenMP 4.5 §3.2, §3.3). Timing goes to stderr only.
#include <stdio.h>
#include <omp.h>

static omp_lock_t log_lock;

static void record(int *log, int *count, int v)
{
    omp_set_lock(&log_lock);
    log[(*count)++] = v;
    omp_unset_lock(&log_lock);
}

int main(void)
{
    int log[8], count = 0;
    double start = omp_get_wtime();
    omp_init_lock(&log_lock);
#pragma omp parallel
    {
        int id = omp_get_thread_num();
        int nthreads = omp_get_num_threads();
        record(log, &count, id * 100 + nthreads);
    }
    printf("threads: max %d, in parallel %d, level %d, team size %d, ancestor %d\n",
           omp_get_max_threads(), omp_in_parallel(), omp_get_level(), omp_get_team_size(0),
           omp_get_ancestor_thread_num(0));
    printf("log: %d entries, first %d\n", count, log[0]);
    printf("test_lock on a free lock: %d\n", omp_test_lock(&log_lock));
    omp_unset_lock(&log_lock);
    omp_destroy_lock(&log_lock);

    omp_nest_lock_t nest;
    omp_init_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    printf("nest depth after test: %d\n", omp_test_nest_lock(&nest));
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
    omp_destroy_nest_lock(&nest);

    double elapsed = omp_get_wtime() - start;
    fprintf(stderr, "elapsed %g s (tick %g)\n", elapsed, omp_get_wtick());
    return elapsed < 0.0;
}
