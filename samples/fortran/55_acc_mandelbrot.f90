! A Mandelbrot set on the device: each pixel is an independent iteration of a
! `parallel loop collapse(2)` (OpenACC 2.0 §2.7.1), its count copied out. The kernel iterates
! z = z**2 + c on real and imaginary parts (as GPU codes do: the CUDA back-end has no complex
! type); the host checks one pixel with Fortran's complex arithmetic.
program acc_mandelbrot
  implicit none
  integer, parameter :: nx = 48, ny = 16, maxit = 100
  integer :: counts(nx, ny), i, j, k
  real(8) :: zr, zi, cr, ci, t
  complex(8) :: z, c
  character(len=nx) :: row
  character(len=*), parameter :: shades = ' .:-=#'
  !$acc parallel loop collapse(2) private(zr, zi, cr, ci, t, k) copyout(counts)
  do j = 1, ny
    do i = 1, nx
      cr = -2.1d0 + (i - 1) * 2.8d0 / (nx - 1)
      ci = -1.2d0 + (j - 1) * 2.4d0 / (ny - 1)
      zr = 0.0d0
      zi = 0.0d0
      do k = 0, maxit - 1
        if (zr * zr + zi * zi > 4.0d0) exit
        t = zr * zr - zi * zi + cr
        zi = 2.0d0 * zr * zi + ci
        zr = t
      end do
      counts(i, j) = k
    end do
  end do
  ! The same count for pixel (20, 8) with complex arithmetic on the host.
  c = cmplx(-2.1d0 + 19 * 2.8d0 / (nx - 1), -1.2d0 + 7 * 2.4d0 / (ny - 1), kind=8)
  z = (0.0d0, 0.0d0)
  do k = 0, maxit - 1
    if (abs(z) > 2.0d0) exit
    z = z * z + c
  end do
  print '(a, l1)', 'host complex check: ', k == counts(20, 8)
  do j = 1, ny
    do i = 1, nx
      k = min(6, 1 + counts(i, j) / 17)
      row(i:i) = shades(k:k)
    end do
    print '(a)', row
  end do
  print '(a, i0)', 'points in the set: ', count(counts == maxit)
end program acc_mandelbrot
