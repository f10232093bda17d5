! An unmodified-style Fortran program calling LAPACK's DGESV (linked to libexstar_blas): prints
! the info, the pivots and every entry of the solution as the 16 hex digits of its bits.
! tests/blas/dgesv_exstar.cpp builds the same system and prints exstar_dgesv's bits.
program dgesv_program
  implicit none
  integer, parameter :: n = 60, nrhs = 2
  double precision :: a(n, n), b(n, nrhs)
  integer :: ipiv(n), info, i, j
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(mod(i * 7 + j * 13, 17) - 8) + 1d0 / dble(i + j)
    end do
  end do
  do j = 1, nrhs
    do i = 1, n
      b(i, j) = dble(i * j) / 3d0
    end do
  end do
  call dgesv(n, nrhs, a, n, ipiv, b, n, info)
  write (*, '(I0)') info
  write (*, '(I0)') ipiv
  do j = 1, nrhs
    do i = 1, n
      write (*, '(Z16.16)') transfer(b(i, j), 0_8)
    end do
  end do
end program
