! A shared counter incremented by every iteration of a parallel loop without `!$acc atomic`
! (OpenACC 2.0 §2.12): the increments race.
program race_counter
  implicit none
  integer :: count, i
  real :: x(200)
  do i = 1, 200
    x(i) = mod(i, 10)
  end do
  count = 0
  !$acc parallel loop copyin(x) copy(count)
  do i = 1, 200
    if (x(i) > 4.5) count = count + 1 ! expect: data-race
  end do
  print *, 'count =', count
end program race_counter
