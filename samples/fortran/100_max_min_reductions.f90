! Issue 16 (session 12): `max`/`min` reductions as the Laplace lab writes them,
! `error = max(error, abs(new - old))`, in host loops and in compute constructs with
! `reduction(max:)`/`reduction(min:)` (OpenACC 2.0 §2.5.12), of real(8) and real(4), over trip
! counts odd and even, long and short (the native engine runs them in SIMD lanes, the last
! iterations one by one; each result is the sequential loop's).
program max_min_reductions
  implicit none
  integer, parameter :: n = 20001
  real(8), allocatable :: a(:), b(:)
  real(4), allocatable :: p(:), q(:)
  real(8) :: error, lowest
  real(4) :: perr, plow
  integer :: i, k, m
  allocate(a(n), b(n), p(n), q(n))
  do i = 1, n
    a(i) = dble(mod(i * 7919, 1013)) / 97.0d0 - 5.0d0
    b(i) = dble(mod(i * 131, 977)) / 89.0d0 - 4.0d0
    p(i) = real(a(i), 4)
    q(i) = real(b(i), 4)
  end do
  do k = 0, 3
    m = n - k * 6666
    error = 0.0d0
    lowest = huge(1.0d0)
    perr = 0.0
    plow = huge(1.0)
    do i = 1, m
      error = max(error, abs(a(i) - b(i)))
      lowest = min(lowest, a(i) * b(i))
    end do
    do i = 1, m
      perr = max(perr, abs(p(i) - q(i)))
      plow = min(plow, p(i) + q(i))
    end do
    print '(a, i0, 2es24.16, 2es16.8)', 'host m=', m, error, lowest, perr, plow
  end do
  error = 0.0d0
  lowest = huge(1.0d0)
  !$acc parallel loop reduction(max:error) reduction(min:lowest) copyin(a, b)
  do i = 2, n - 1
    error = max(error, abs(a(i + 1) - 2.0d0 * a(i) + a(i - 1)))
    lowest = min(lowest, b(i) - a(i))
  end do
  print '(a, 2es24.16)', 'kernel ', error, lowest
  perr = 0.0
  !$acc kernels loop reduction(max:perr) copyin(p, q)
  do i = 1, n
    perr = max(perr, abs(p(i) * q(i)))
  end do
  print '(a, es16.8)', 'kernels loop ', perr
  deallocate(a, b, p, q)
end program max_min_reductions
