! Control flow: do with steps, do while, exit and cycle of named loops, if/else if,
! select case with ranges, and the value of a do variable after the loop (§8.1.6.4.4).
program control
  implicit none
  integer :: i, j, total, k
  total = 0
  do i = 10, 1, -3
    total = total + i
  end do
  print *, 'down by 3:', total, 'i after =', i
  outer: do i = 1, 5
    do j = 1, 5
      if (j > i) cycle outer
      if (i * j > 12) exit outer
      total = total + i * j
    end do
  end do outer
  print *, 'nested:', total, i, j
  k = 0
  do while (k < 100)
    k = k * 2 + 1
  end do
  print *, 'while:', k
  do i = 1, 12, 4
    select case (i)
    case (1)
      print *, i, 'is one'
    case (2:6)
      print *, i, 'is small'
    case (7:)
      print *, i, 'is large'
    case default
      print *, 'never'
    end select
  end do
  if (k > 200) then
    print *, 'big'
  else if (k > 100) then
    print *, 'medium'
  else
    print *, 'small'
  end if
  k = 0
  do
    k = k + 1
    if (k == 7) exit
  end do
  print *, 'forever loop left at', k
end program control
