! Issue 16 (V&V `atomic_*_minus_*`/`*_divided_*`): an actual argument whose type is not the dummy's,
! in a call of an external procedure (an implicit interface, Fortran 2003 §12.3.1). Fortran
! requires the types to agree (§12.4.1.2); gfortran rejects such calls unless
! -fallow-argument-mismatch is given, and then passes the actual's address: the procedure reads
! the actual's bytes as its dummy's type. accsim warns and does the same. Only same-size pairs
! and reads of the first bytes are printed here (what gfortran reads past a shorter actual is
! whatever memory follows it).
! gfortran-flags: -fallow-argument-mismatch
subroutine show_int(label, i)
  implicit none
  character(len=*), intent(in) :: label
  integer, intent(in) :: i
  print '(a, i0)', label, i
end subroutine show_int

subroutine set_double(d, v)
  implicit none
  real(8), intent(out) :: d
  real(8), intent(in) :: v
  d = v
end subroutine set_double

logical function positive(x)
  implicit none
  real(8), intent(in) :: x
  positive = x > 0
end function positive

program argument_mismatch
  implicit none
  integer(8) :: bits
  real(8) :: wide
  real :: narrow
  logical :: positive
  narrow = 1.0
  call show_int('bits of real(4) 1.0: ', narrow) ! expect: argument-mismatch
  call show_int('bits of real(4) -2.5: ', -2.5) ! expect: argument-mismatch
  wide = 3.0d0
  call show_int('low word of real(8) 3.0: ', wide) ! expect: argument-mismatch
  bits = 0
  call set_double(bits, 2.5d0) ! expect: argument-mismatch
  print '(a, i0)', 'integer(8) after set_double(bits, 2.5d0): ', bits
  bits = 4611686018427387904_8
  print '(a, l1)', 'positive(integer(8) 2**62): ', positive(bits) ! expect: argument-mismatch
  bits = -1_8
  print '(a, l1)', 'positive(integer(8) -1): ', positive(bits) ! expect: argument-mismatch
end program argument_mismatch
