! where / elsewhere, masked array intrinsics, merge.
program where_masks
  implicit none
  integer :: i
  real :: x(8), y(8)
  x = [(real(i) - 4.5, i = 1, 8)]
  where (x > 0.0)
    y = sqrt(x)
  elsewhere
    y = -1.0
  end where
  print *, y
  print *, count(x < 0.0), any(x > 3.0), all(x > -4.0)
  print *, merge(1, 0, x(1) > 0.0), maxval(x), minval(abs(x))
end program where_masks
