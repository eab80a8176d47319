"""Which float32 matrix kernel TF 2.21 runs on this machine, read from the same facts TF and oneDNN
read (CPU flags, TF_ENABLE_ONEDNN_OPTS, ONEDNN_MAX_CPU_ISA), and whether tfscope claims its bits
there (README, numerics). Cases import it by path; it is not a case (its name starts with `_`)."""
import os


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def onednn_enabled():
    """TF's IsMklEnabled: on by default with AVX512_VNNI, AVX512_BF16, AVX_VNNI or AMX."""
    flags = _cpu_flags()
    on = bool(flags & {"avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16"})
    v = os.environ.get("TF_ENABLE_ONEDNN_OPTS")
    if v is not None and v.lower() in ("0", "false"):
        on = False
    if v is not None and v.lower() in ("1", "true"):
        on = True
    return on


def onednn_isa():
    """The ISA oneDNN's f32 GEMM dispatches on: avx512_core, avx2, avx, sse41 or none."""
    flags = _cpu_flags()
    best = "none"
    for isa, need in (("sse41", {"sse4_1"}), ("avx", {"avx"}), ("avx2", {"avx2"}),
                      ("avx512_core", {"avx512f", "avx512bw", "avx512vl", "avx512dq"})):
        if need <= flags:
            best = isa
    order = ["none", "sse41", "avx", "avx2", "avx512_core"]
    cap = (os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or "").lower()
    caps = {"sse41": "sse41", "avx": "avx", "avx2": "avx2", "avx2_vnni": "avx2", "avx2_vnni_2": "avx2"}
    if cap in caps and order.index(caps[cap]) < order.index(best):
        best = caps[cap]
    return best


def matmul_bits_claimed():
    """tfscope sums MatMul/BatchMatMulV2 in TF's order where oneDNN's kernels are its AVX2 or
    AVX-512 ones: oneDNN's own (TF with oneDNN) or inside TF's Eigen contraction (without)."""
    if not onednn_enabled() and os.environ.get("TENSORFLOW_USE_CUSTOM_CONTRACTION_KERNEL", "") in ("0", "false"):
        return False
    return onednn_isa() in ("avx2", "avx512_core")


def graph_matmul_bits_claimed():
    """The same for MatMul in graphs, where TF's grappler (with oneDNN) fuses MatMul + BiasAdd
    (+ an activation) into _MklFusedMatMul, a oneDNN inner product: with oneDNN's AVX-512 kernels
    it sums as the sgemm does for the shapes measured, with its AVX2 kernels (brgemm) it does not,
    and tfscope does not reproduce it."""
    return matmul_bits_claimed() and not (onednn_enabled() and onednn_isa() == "avx2")


def conv_bits_claimed(kind):
    """tfscope sums float32 convolutions and pooling in TF's order (tfscope/src/ops/conv_f32.h,
    pool.cc): `kind` is "conv2d" (Conv2D through a patches or 1x1 contraction), "conv2d_whole"
    (a filter as large as the image), "depthwise", "transpose" or "pool". Without oneDNN TF runs
    Eigen's kernels: the contractions in MatMul's order, depthwise and pooling in plain loops
    (TF's wheel has no FMA). With oneDNN TF runs oneDNN's convolutions (_MklNativeConv2D, ...),
    whose order tfscope does not reproduce (small shapes happen to agree, 8x28x28x1 * 5x5x1x8 and
    1x16x16x64 * 3x3x64x64 strides 2 do not, on AVX-512); its AVX-512 pooling gives Eigen's
    values. Conv2DBackpropInput (conv2d_transpose) without oneDNN is Eigen's contraction for one
    image or a large one, else oneDNN's sgemm per image: claimed where that sgemm is its AVX-512
    kernel (measured); with oneDNN it is oneDNN's own, not reproduced."""
    if kind == "transpose":
        return not onednn_enabled() and onednn_isa() == "avx512_core" and matmul_bits_claimed()
    if not onednn_enabled():
        return kind in ("depthwise", "pool") or matmul_bits_claimed()
    return onednn_isa() == "avx512_core" and kind == "pool"


def einsum_bits_claimed():
    """Einsum is TF's BatchMatMul kernel on the operands moved to [batch, free, contract]
    (_MklEinsum with oneDNN: its matmul primitive): tfscope's BatchMatMulV2 order, measured on
    AVX-512 under both settings."""
    if onednn_enabled():
        return onednn_isa() == "avx512_core"
    return matmul_bits_claimed()
