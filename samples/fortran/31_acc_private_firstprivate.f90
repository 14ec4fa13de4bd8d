! private and firstprivate scalars and a private temporary array per gang (§2.5.10, §2.7.9).
program private_firstprivate
  implicit none
  integer, parameter :: n = 64
  real :: out(n), tmp(4), base
  integer :: i, k
  base = 10.0
  !$acc parallel loop firstprivate(base) private(tmp) copyout(out)
  do i = 1, n
    do k = 1, 4
      tmp(k) = base + i * k
    end do
    out(i) = tmp(1) + tmp(4)
  end do
  print *, out(1), out(n)
end program private_firstprivate
