! Every gang runs the code of a parallel region outside its loops (gang-redundant mode,
! OpenACC 2.0 §2.5.1), so all gangs write `flag`: a data race.
program race_gang_redundant
  implicit none
  integer :: flag(1)
  real :: a(64)
  integer :: i
  flag = 0
  a = [(real(i - 1), i = 1, 64)]
  !$acc parallel num_gangs(4) copy(flag, a)
  flag(1) = 1 ! expect: data-race
  !$acc loop gang
  do i = 1, 64
    a(i) = a(i) * 2.0
  end do
  !$acc end parallel
  print '(a, i0, a, f0.1)', 'flag = ', flag(1), ', a(6) = ', a(6)
end program race_gang_redundant
