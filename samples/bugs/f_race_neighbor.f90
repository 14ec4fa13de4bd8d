! Each iteration reads the element the next iteration writes: a loop-carried dependence in a
! loop run in parallel (OpenACC 2.0 §2.7.1: the iterations must be independent).
program race_neighbor
  implicit none
  integer, parameter :: n = 128
  real :: a(n + 1)
  integer :: i
  a = [(real(i), i = 1, n + 1)]
  !$acc parallel loop gang vector copy(a)
  do i = 1, n
    a(i) = a(i + 1) * 0.5 ! expect: data-race
  end do
  print *, a(1), a(n)
end program race_neighbor
