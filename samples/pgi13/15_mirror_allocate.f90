! 15_mirror_allocate.f90 — `mirror` follows allocations made inside the data region (PGI
! Accelerator 1.3 §2.3.3.6, Fortran only).
!
! Teaches: `mirror(w)` on a data region says the device copy of allocatable `w` has the host
! array's allocation state within the region: here `w` is not allocated when the region starts
! (no device copy), is allocated inside it (its device copy is allocated at that point, to the
! same size), deallocated and allocated again with another size (the device copy follows), and
! is still allocated at region exit (its device copy is deallocated there). Values move only
! with `update`. In OpenACC 2.0 the Fortran front-end writes `enter data create(w)` after each
! `allocate(w)`, `exit data delete(w)` before each `deallocate(w)` and at region exit (run
! `accsim run --notify` to see the device allocations follow the host's).
program mirror_allocate
  implicit none
  real, allocatable :: w(:)
  real :: total
  integer :: i, n, round

  total = 0
!$acc data region mirror(w)
  do round = 1, 2
    n = 500 * round
    allocate(w(n))
    do i = 1, n
      w(i) = i
    end do
!$acc update device(w)
!$acc region do parallel
    do i = 1, n
      w(i) = 2.0 * w(i) + round
    end do
!$acc update host(w)
    total = total + sum(w)
    if (round == 1) deallocate(w)
  end do
!$acc end data region
  print '(A,I6,A,F14.1)', 'size of w = ', size(w), ', total = ', total
  deallocate(w)
end program mirror_allocate
