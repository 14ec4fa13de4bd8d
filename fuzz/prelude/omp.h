#ifndef _FUZZ_OMP_H
#define _FUZZ_OMP_H
typedef struct { unsigned char _x[4] __attribute__((__aligned__(4))); } omp_lock_t;
typedef struct { unsigned char _x[8 + sizeof(void *)] __attribute__((__aligned__(sizeof(void *)))); } omp_nest_lock_t;
extern void omp_init_lock(omp_lock_t *);
extern void omp_destroy_lock(omp_lock_t *);
extern void omp_set_lock(omp_lock_t *);
extern void omp_unset_lock(omp_lock_t *);
extern int omp_test_lock(omp_lock_t *);
extern void omp_init_nest_lock(omp_nest_lock_t *);
extern void omp_destroy_nest_lock(omp_nest_lock_t *);
extern void omp_set_nest_lock(omp_nest_lock_t *);
extern void omp_unset_nest_lock(omp_nest_lock_t *);
extern int omp_test_nest_lock(omp_nest_lock_t *);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern int omp_get_thread_num(void);
extern int omp_in_parallel(void);
extern int omp_get_level(void);
extern int omp_get_ancestor_thread_num(int);
extern int omp_get_team_size(int);
extern double omp_get_wtime(void);
extern double omp_get_wtick(void);
#endif
