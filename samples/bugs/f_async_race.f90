! The host reads an array that an `async` update may still be writing: the `wait` comes too
! late (OpenACC 2.0 §2.13, §2.14.4).
program async_race
  implicit none
  real :: a(100)
  integer :: i
  a = [(real(i), i = 1, 100)]
  !$acc data copyin(a)
  !$acc parallel loop async(1)
  do i = 1, 100
    a(i) = a(i) + 1.0
  end do
  !$acc update host(a) async(1)
  print *, 'a(10) =', a(10) ! expect: async-race
  !$acc wait(1)
  !$acc end data
end program async_race
