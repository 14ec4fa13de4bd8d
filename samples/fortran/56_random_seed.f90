! random_number after random_seed(put=…) gives gfortran's own sequence (libgfortran's
! xoshiro256** and seed layout), so a seeded Monte Carlo run prints what gfortran prints.
program random_seed_put
  implicit none
  integer :: n, i, hits
  integer, allocatable :: seed(:), back(:)
  real :: x(2, 3), u, v
  real(8) :: d(4)
  call random_seed(size=n)
  print *, 'seed size:', n
  allocate(seed(n), back(n))
  seed = [(1000 * i + 7, i = 1, n)]
  call random_seed(put=seed)
  call random_number(x)
  print '(3f10.6)', x
  call random_number(d)
  print '(2f20.16)', d
  call random_seed(get=back)
  call random_number(u)
  call random_seed(put=back)
  call random_number(v)
  print *, 'replayed:', u == v
  ! pi by Monte Carlo, reproducible from the seed
  seed = 12345
  call random_seed(put=seed)
  hits = 0
  do i = 1, 20000
    call random_number(u)
    call random_number(v)
    if (u * u + v * v <= 1.0) hits = hits + 1
  end do
  print '(a, i0, a, f8.5)', 'hits: ', hits, '  pi ~ ', 4.0 * hits / 20000.0
end program random_seed_put
