! Host and device take turns inside one data region: the device scales, `update self` brings
! the array back for a host check, the host changes one element, `update device` sends it.
program update_loop
  implicit none
  integer, parameter :: n = 32
  real :: a(n)
  integer :: i, round
  a = [(real(i), i = 1, n)]
  !$acc data copy(a)
  do round = 1, 3
    !$acc parallel loop
    do i = 1, n
      a(i) = a(i) * 2.0
    end do
    !$acc update self(a)
    print *, 'round', round, a(1), a(n)
    a(1) = 0.0
    !$acc update device(a(1:1))
  end do
  !$acc end data
  print *, sum(a)
end program update_loop
