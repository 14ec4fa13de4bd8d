! pi by Monte Carlo: the points come from a seeded `random_number` (gfortran's generator and
! seed layout), the hits are counted on the device with a `reduction(+:hits)` (OpenACC 2.0
! §2.5.11), and the estimate is the one gfortran prints.
program acc_monte_carlo
  implicit none
  integer, parameter :: n = 4000
  real(8) :: x(n), y(n)
  integer :: i, hits, seed(8)
  seed = [(37 * i + 11, i = 1, 8)]
  call random_seed(put=seed)
  call random_number(x)
  call random_number(y)
  hits = 0
  !$acc parallel loop reduction(+:hits) copyin(x, y)
  do i = 1, n
    if (x(i) * x(i) + y(i) * y(i) <= 1.0d0) hits = hits + 1
  end do
  print '(a, i0, a, i0)', 'hits: ', hits, ' of ', n
  print '(a, f10.6)', 'pi ~', 4.0d0 * hits / n
  print '(a, 2f10.6)', 'first point:', x(1), y(1)
end program acc_monte_carlo
