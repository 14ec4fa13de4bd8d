! A kernels region with whole-array assignment and a loop nest over an allocatable 2-D array
! with lower bounds 0 (§2.6.2: the kernels construct).
program kernels_2d
  implicit none
  real, allocatable :: g(:,:)
  integer :: i, j, nx, ny
  nx = 9
  ny = 5
  allocate(g(0:nx, 0:ny))
  !$acc kernels
  g = 0.0
  do j = 0, ny
    do i = 0, nx
      g(i, j) = i + 100 * j
    end do
  end do
  !$acc end kernels
  print *, g(0, 0), g(nx, 0), g(0, ny), g(nx, ny)
  print *, sum(g)
end program kernels_2d
