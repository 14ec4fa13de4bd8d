! More formatted output: I with minimum digits, F with 0 decimals, E with exponent width, ES of
! negative numbers, A with width, L, tabs of repeated groups, and a format reused for rows.
program formatted_more
  implicit none
  integer :: i, j
  real :: m(3, 3)
  do j = 1, 3
    do i = 1, 3
      m(i, j) = (i - 2) * 1.25 + j * 0.1
    end do
  end do
  write(*, '(I6.4, I4, I2)') 12, -5, 100
  write(*, '(F6.0, F8.2, F5.1)') 2.5, -0.004, 9.96
  write(*, '(E12.3E3, ES12.3, ES10.2)') 12345.678, -0.000123, 1.0e10
  write(*, '(A8, "|", A2, "|")') 'right', 'trunc'
  do i = 1, 3
    write(*, '(3F8.3)') m(i, :)
  end do
  write(*, '(A, 3(1X, L1))') 'flags:', .true., .false., .true.
  write(*, '(I0, A, I0)') 42, ' and ', -7
end program formatted_more
