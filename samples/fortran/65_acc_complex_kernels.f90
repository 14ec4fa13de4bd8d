! Complex arithmetic inside compute regions (issue 16: complex in GPU kernels). Fortran 2003
! §4.4.3 (the complex type) and §13.7 (cmplx, conjg, abs, real, aimag) on the device: single and
! double precision arrays updated in a `parallel loop`, a complex `+` reduction (OpenACC 2.0
! §2.5.11 allows any arithmetic type), a `kernels` loop of a complex recurrence per element, and
! complex private scalars. Run with `--device cuda`, the same output as on the simulator.
program acc_complex_kernels
  implicit none
  integer, parameter :: n = 64
  complex :: z(n)
  complex(8) :: w(n), s, t
  real(8) :: mags(n)
  integer :: i, k
  do i = 1, n
    z(i) = cmplx(i, -i)
    w(i) = cmplx(0.5d0 * i, 1.0d0, kind=8)
  end do
  s = (0.0d0, 0.0d0)
  !$acc parallel loop copy(z, w) reduction(+:s)
  do i = 1, n
    z(i) = z(i) * (0.0, 1.0) + conjg(z(i))
    w(i) = w(i) * w(i) / (1.0d0, 2.0d0)
    s = s + w(i) * abs(z(i))
  end do
  print '(a, 2f10.3, 2f10.3)', 'z(1), z(n): ', z(1), z(n)
  print '(a, 2f14.6)', 'w(2): ', real(w(2)), aimag(w(2))
  print '(a, 2f16.3)', 'sum: ', s
  ! A recurrence t = t*t + c per element (a few Mandelbrot steps), private complex scalars.
  !$acc kernels loop copyin(w) copyout(mags) private(t)
  do i = 1, n
    t = (0.0d0, 0.0d0)
    do k = 1, 4
      t = t * t + w(i) * (1.0d-2, 0.0d0)
    end do
    mags(i) = abs(t)
  end do
  print '(a, 3es16.8)', 'mags: ', mags(1), mags(n / 2), mags(n)
end program acc_complex_kernels
