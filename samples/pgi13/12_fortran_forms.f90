! 12_fortran_forms.f90 — the Fortran forms of the PGI Accelerator 1.3 directives (seeds/004).
!
! Teaches: in Fortran a 1.3 compute region is `!$acc region` ... `!$acc end region` (§2.3.1), a
! data region `!$acc data region` ... `!$acc end data region` (§2.3.2), the loop mapping
! directive is `!$acc do` with the same clauses as C's `for` (§2.4), and `!$acc region do` is
! the combined form (§2.5). `mirror(list)` (Fortran only, §2.3.3) gives an allocatable array a
! device copy that follows its allocation state; its values move only with `update` (§2.7.1).
! In OpenACC 2.0: `data`, `kernels`, `loop` and `kernels loop`, `mirror` → `create`
! (`accsim info` shows each directive's 2.0 form).
program fortran_forms
  implicit none
  integer, parameter :: n = 1000
  real :: a(n), b(n), c(n)
  real, allocatable :: w(:)
  integer :: i
  real :: s

  allocate(w(n))
  do i = 1, n
    a(i) = i
    w(i) = 0.5
  end do

!$acc data region copyin(a), mirror(w), copyout(c)
!$acc update device(w)
!$acc region
!$acc do parallel
  do i = 1, n
    b(i) = 2.0 * a(i) * w(i)
  end do
!$acc do parallel, vector(64)
  do i = 1, n
    c(i) = b(i) + 1.0
  end do
!$acc end region
!$acc region do parallel
  do i = 1, n
    w(i) = w(i) + c(i)
  end do
!$acc update host(w)
!$acc end data region

  s = 0
  do i = 1, n
    s = s + w(i)
  end do
  print '(A,F8.1,A,F8.1)', 'c(1) = ', c(1), ', c(n) = ', c(n)
  print '(A,F12.1)', 'sum of w = ', s
  deallocate(w)
end program fortran_forms
