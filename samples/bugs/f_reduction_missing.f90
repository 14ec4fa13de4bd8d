! A sum over a gang-vector loop without `reduction(+:s)` (OpenACC 2.0 §2.7.11): every
! iteration reads and writes the one shared `s`, and the updates race.
program reduction_missing
  implicit none
  integer, parameter :: n = 256
  real(8) :: x(n), s
  integer :: i
  do i = 1, n
    x(i) = 0.5d0 * i
  end do
  s = 0.0d0
  !$acc parallel loop gang vector copyin(x) copy(s)
  do i = 1, n
    s = s + x(i) ! expect: data-race
  end do
  print '(a, f0.2)', 'sum = ', s
end program reduction_missing
