// Eigen's erf and erfc (generic_fast_erf, generic_fast_erfc) as TF's kernels run them, one
// element at a time. The same rational forms serve packets and scalars; what differs is
// exp(-x^2) (Eigen's polynomial on packets, the C library's exp on scalars) and, for float,
// 1/x^2 (the CPU's reciprocal estimate and one Newton step on packets, a division on scalars).
// Internal to src/ops.
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <cmath>

#include "eigen_math.h"

namespace tfs::detail {

// Eigen's preciprocal on AVX floats: the estimate refined by r + r (1 - a r) (the estimate
// itself where that step is NaN: a zero or infinite a).
inline float packet_reciprocal(float a) {
  const float r = lane::reciprocal_estimate(a);
  const float e = 1.0f - a * r;
  if (std::isnan(e)) return r;
  return r * e + r;
}

template <bool kPacket>
float eigen_reciprocal(float a) {
  if constexpr (kPacket)
    return packet_reciprocal(a);
  else
    return 1.0f / a;
}
template <bool kPacket>
double eigen_reciprocal(double a) {
  return 1.0 / a;
}

// Float erf: x P(x^2) / Q(x^2), degree 11/10, x^2 capped at 16, the result clamped to [-1, 1].
inline float eigen_erf(float x) {
  constexpr float kP[] = {
      2.123732201653183437883853912353515625e-06f, 2.861979592125862836837768554687500000e-04f,
      3.658048342913389205932617187500000000e-03f, 5.243302136659622192382812500000000000e-02f,
      1.874160766601562500000000000000000000e-01f, 1.128379106521606445312500000000000000e+00f};
  constexpr float kQ[] = {
      3.89185734093189239501953125000e-05f, 1.14329601638019084930419921875e-03f,
      1.47520881146192550659179687500e-02f, 1.12945675849914550781250000000e-01f,
      4.99425798654556274414062500000e-01f, 1.0f};
  const float x2 = lane::min(16.0f, x * x);
  const float p = x * polynomial(x2, kP, 5);
  const float q = polynomial(x2, kQ, 5);
  return lane::max(lane::min(p / q, 1.0f), -1.0f);
}

// erf(x)/x for x^2 <= 1 (double): a 9/10 rational in x^2.
inline double erf_over_x_small(double x2) {
  constexpr double kNum[] = {1.9493725660006057018823477644531294572516344487667083740234375e-04,
                             1.8272566210022942682217328425053892715368419885635375976562500e-03,
                             4.5303363351690106863856044583371840417385101318359375000000000e-02,
                             1.4215015503619179981775744181504705920815467834472656250000000e-01,
                             1.1283791670955125585606992899556644260883331298828125000000000e+00};
  constexpr double kDen[] = {2.0294484101083099089526257108317963684385176748037338256835938e-05,
                             6.8117805899186819641732970609382391558028757572174072265625000e-04,
                             1.0582026056098614921752165685120417037978768348693847656250000e-02,
                             9.3252603143757495374188692949246615171432495117187500000000000e-02,
                             4.5931062818368939559832142549566924571990966796875000000000000e-01,
                             1.0};
  return polynomial(x2, kNum, 4) / polynomial(x2, kDen, 5);
}

// erfc(x) for 1 < x^2 (double): exp(-x^2) (1 - x2_lo) P(1/x^2) / (x Q(1/x^2)), + 2 below 0.
template <bool kPacket>
double erfc_large(double x, double x2) {
  constexpr double kNum[] = {1.5252844933226974316088642158462107545346952974796295166015625e-04,
                             1.0909912393738931124520519233556115068495273590087890625000000e-02,
                             1.0628604636755033252537572252549580298364162445068359375000000e-01,
                             3.3492472973137982217295416376146022230386734008789062500000000e-01,
                             4.5065776215933289750026347064704168587923049926757812500000000e-01,
                             2.9433039130294824659017649537418037652969360351562500000000000e-01,
                             9.8792676360600226170838311645638896152377128601074218750000000e-02,
                             1.7095935395503719655962981960328761488199234008789062500000000e-02,
                             1.4249109729504577659398023570247460156679153442382812500000000e-03,
                             4.4567378313647954771875570045835956989321857690811157226562500e-05};
  constexpr double kDen[] = {2.041985103115789845773520028160419315099716186523437500000000e-03,
                             5.316030659946043707142493417450168635696172714233398437500000000e-02,
                             3.426242193784684864077405563875799998641014099121093750000000e-01,
                             8.565637124308049799026321124983951449394226074218750000000000e-01,
                             1.000000000000000000000000000000000000000000000000000000000000e+00,
                             5.968805280570776972126623149961233139038085937500000000000000e-01,
                             1.890922854723317836356244470152887515723705291748046875000000e-01,
                             3.152505418656005586885981983868987299501895904541015625000000e-02,
                             2.565085751861882583380047861965067568235099315643310546875000e-03,
                             7.899362131678837697403017248376499992446042597293853759765625e-05};
  const double x2_lo = lane::twoprod_low(x, x, x2);
  const double e = eigen_exp<kPacket>(-x2);
  const double z = e - e * x2_lo;
  const double q2 = 1.0 / x2;
  const double r = polynomial(q2, kNum, 9) / (x * polynomial(q2, kDen, 9));
  return z * r + (x < 0.0 ? 2.0 : 0.0);
}

template <bool kPacket>
double eigen_erf(double x) {
  const double x2 = x * x;
  if (!(1.0 < x2)) return x * erf_over_x_small(x2);
  return 1.0 - erfc_large<kPacket>(x, x2);
}

// Float erfc: 1 + x S(x^2) for |x| <= 1, else exp(-x^2) (1 - x2_lo) P(1/x^2) / (x Q(1/x^2)),
// + 2 below 0, with x clamped to [-11, 11].
template <bool kPacket>
float eigen_erfc(float x_in) {
  constexpr float kSmall[] = {
      5.61802298761904239654541015625e-04f, -4.91381669417023658752441406250e-03f,
      2.67075151205062866210937500000e-02f, -1.12800106406211853027343750000e-01f,
      3.76122951507568359375000000000e-01f, -1.12837910652160644531250000000e+00f};
  constexpr float kNum[] = {1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
                            3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f};
  constexpr float kDen[] = {1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
                            1.0000000000000000000000000e+00f, 6.2173241376876831054687500e-01f,
                            9.5662862062454223632812500e-02f};
  const float x = lane::min(lane::max(x_in, -11.0f), 11.0f);
  const float x2 = x * x;
  if (!(1.0f < x2)) return x * polynomial(x2, kSmall, 5) + 1.0f;
  const float x2_lo = lane::twoprod_low(x, x, x2);
  const float e = eigen_exp<kPacket>(-x2);
  const float z = e - e * x2_lo;
  const float q2 = eigen_reciprocal<kPacket>(x2);
  const float r = polynomial(q2, kNum, 3) / (x * polynomial(q2, kDen, 4));
  return z * r + (x < 0.0f ? 2.0f : 0.0f);
}

// Double erfc: 1 - x erf(x)/x for |x| <= 1, else erfc_large, with x clamped to [-28, 28].
template <bool kPacket>
double eigen_erfc(double x_in) {
  const double x = lane::min(lane::max(x_in, -28.0), 28.0);
  const double x2 = x * x;
  if (!(1.0 < x2)) return 1.0 - x * erf_over_x_small(x2);
  return erfc_large<kPacket>(x, x2);
}

}  // namespace tfs::detail
