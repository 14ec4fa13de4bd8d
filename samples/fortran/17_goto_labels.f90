! go to and labelled statements, exit from do while, and cycle.
program goto_labels
  implicit none
  integer :: i, n
  n = 0
  i = 0
10 continue
  i = i + 1
  if (mod(i, 2) == 0) go to 10
  n = n + i
  if (i < 9) goto 10
  print *, 'odd sum', n
  i = 0
  do while (.true.)
    i = i + 1
    if (i > 5) exit
    if (i == 3) cycle
    print *, 'i =', i
  end do
end program goto_labels
