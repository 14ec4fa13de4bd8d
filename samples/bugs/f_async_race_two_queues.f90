! Work on queue 2 reads what work on queue 1 writes; nothing orders the two queues
! (OpenACC 2.0 §2.14: only `wait` orders activity queues).
program async_race_two_queues
  implicit none
  real :: a(64), b(64)
  integer :: i
  a = [(real(i - 1), i = 1, 64)]
  !$acc data copy(a) copyout(b)
  !$acc parallel loop async(1)
  do i = 1, 64
    a(i) = a(i) * 3.0
  end do
  !$acc parallel loop async(2)
  do i = 1, 64
    b(i) = a(i) + 1.0 ! expect: async-race
  end do
  !$acc wait
  !$acc end data
  print '(a, f0.1)', 'b(3) = ', b(3)
end program async_race_two_queues
