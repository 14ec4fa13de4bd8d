! Reductions in Fortran: +, *, max, min, .and., .or. (§2.5.11, §2.7.10).
program reductions
  implicit none
  integer, parameter :: n = 500
  integer :: i, isum, imax
  real :: x(n), rmin
  double precision :: dsum, prod
  logical :: all_pos, any_big
  do i = 1, n
    x(i) = mod(i * 37, 101) - 50.0
  end do
  isum = 0
  imax = -huge(imax)
  rmin = huge(rmin)
  dsum = 0.0d0
  prod = 1.0d0
  all_pos = .true.
  any_big = .false.
  !$acc parallel loop reduction(+:isum, dsum) reduction(max:imax) reduction(min:rmin)
  do i = 1, n
    isum = isum + i
    dsum = dsum + x(i)
    imax = max(imax, int(x(i)))
    rmin = min(rmin, x(i))
  end do
  !$acc parallel loop reduction(*:prod) reduction(.and.:all_pos) reduction(.or.:any_big)
  do i = 1, 20
    prod = prod * 1.5d0
    all_pos = all_pos .and. (x(i) > -100.0)
    any_big = any_big .or. (x(i) > 49.0)
  end do
  print *, isum, imax, rmin
  print *, dsum, prod
  print *, all_pos, any_big
end program reductions
