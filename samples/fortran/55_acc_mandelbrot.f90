! A Mandelbrot set on the device with complex arithmetic: each pixel is an independent
! iteration of a `parallel loop collapse(2)` (OpenACC 2.0 §2.7.1), its count copied out.
program acc_mandelbrot
  implicit none
  integer, parameter :: nx = 48, ny = 16, maxit = 100
  integer :: counts(nx, ny), i, j, k
  complex(8) :: z, c
  character(len=nx) :: row
  character(len=*), parameter :: shades = ' .:-=#'
  !$acc parallel loop collapse(2) private(z, c, k) copyout(counts)
  do j = 1, ny
    do i = 1, nx
      c = cmplx(-2.1d0 + (i - 1) * 2.8d0 / (nx - 1), -1.2d0 + (j - 1) * 2.4d0 / (ny - 1), kind=8)
      z = (0.0d0, 0.0d0)
      do k = 0, maxit - 1
        if (abs(z) > 2.0d0) exit
        z = z * z + c
      end do
      counts(i, j) = k
    end do
  end do
  do j = 1, ny
    do i = 1, nx
      k = min(6, 1 + counts(i, j) / 17)
      row(i:i) = shades(k:k)
    end do
    print '(a)', row
  end do
  print '(a, i0)', 'points in the set: ', count(counts == maxit)
end program acc_mandelbrot
