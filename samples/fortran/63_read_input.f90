! List-directed input from standard input (Fortran 2003 §10.9.1), fed 63_read_input.stdin: a
! count, then arrays of that size spread over records, values separated by blanks and commas, a
! null value leaving an item unchanged, a slash ending a statement early, logical and character
! values, each `read` starting at a new record, and `iostat=` seeing the end of the input. The
! values read are then summed on the device.
program read_input
  implicit none
  integer :: n, i, ios, total
  real(8) :: w(6), scale
  integer :: keep(3)
  logical :: flag
  character(len=8) :: label
  real(8) :: acc_sum

  read *, n
  read(*, *) (w(i), i = 1, n)
  read(5, *) scale, flag, label
  keep = -1
  read *, keep
  total = 0
  ios = 0
  do while (ios == 0)
    read(*, *, iostat=ios) i
    if (ios == 0) total = total + i
  end do

  acc_sum = 0.0d0
  !$acc parallel loop reduction(+:acc_sum) copyin(w(1:n))
  do i = 1, n
    acc_sum = acc_sum + w(i) * scale
  end do

  print *, 'n =', n
  print '(6f8.3)', w(1:n)
  print *, 'scale', scale, 'flag', flag, 'label [', label, ']'
  print *, 'keep', keep
  print *, 'total', total, 'iostat', ios
  print '(a, f12.4)', 'device sum:', acc_sum
end program read_input
