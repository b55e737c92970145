// The CUDA kernels of the device backend (leaf_kernel.h). One GPU thread runs one trial with the
// CPU backend's own trial function (runFastTrial) on the same Philox stream; the first thread of
// each leaf then accumulates the leaf's 64 values in trial order with MomentAccumulator::add, as
// the CPU does — so a leaf's moments differ from the CPU's only by the last-bit differences of the
// device's exp/log. Per-trial scratch lives in one global buffer, interleaved across threads so
// that a warp's accesses coalesce; a grid-stride loop keeps that buffer to one wave of threads.
#include <cuda_runtime.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "core/montecarlo/cuda_throughput_bound.h"
#include "core/montecarlo/leaf_kernel.h"
#include "core/montecarlo/leaf_kernel_steps.h"

namespace rfscope {
namespace {

constexpr double kMaxScratchBytes = 2.0 * (1 << 30);  // per launch, whatever the dimension

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// Device memory owned like a std::vector (no copies).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  // Grows to at least `count` elements (contents are not kept).
  void reserve(std::size_t count) {
    if (count <= capacity_) return;
    cudaFree(data_);
    data_ = nullptr;
    capacity_ = 0;
    check(cudaMalloc(reinterpret_cast<void**>(&data_), std::max<std::size_t>(1, count) * sizeof(T)),
          "allocating device memory");
    capacity_ = count;
  }
  T* data() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// One pass per kLeavesPerBlock leaves of the block, the grid striding over the launch's leaves.
// One kernel per plan kind, so that each uses only the registers its own sampler needs.
template <FastTrialKind Kind>
__global__ void __launch_bounds__(kThreadsPerBlock)
    leafKernel(const LeafKernelArgs args, StoredSample* selected, unsigned long long* selectedCount,
               unsigned long long capacity) {
  // SignedLog has default member initialisers, which __shared__ variables may not have: raw
  // storage, written (step 1) before it is read (step 2).
  __shared__ alignas(SignedLog) unsigned char storage[sizeof(SignedLog) * kThreadsPerBlock];
  SignedLog* values = reinterpret_cast<SignedLog*>(storage);
  const int local = static_cast<int>(threadIdx.x);
  const auto block = static_cast<std::int64_t>(blockIdx.x);
  for (std::int64_t first = block * kLeavesPerBlock; first < args.leafCount;
       first += args.blocks * kLeavesPerBlock) {
    std::uint64_t trial = 0;
    if (runTrialStep<Kind>(args, block, local, first, values, &trial)) {
      const unsigned long long slot = atomicAdd(selectedCount, 1ull);
      if (slot < capacity) selected[slot] = StoredSample{trial, values[local]};
    }
    __syncthreads();
    accumulateStep(args, local, first, values);
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kThreadsPerBlock)
    drawBoundKernel(std::uint64_t seed, std::int64_t trials, std::int64_t draws, double* total) {
  double sum = 0;
  for (std::int64_t trial = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       trial < trials; trial += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    TrialStream rng(seed, static_cast<std::uint64_t>(trial));
    PairedNormals<TrialStream> normals(rng);
    for (std::int64_t k = 0; k < draws; ++k)
      sum += normals.next();
  }
  atomicAdd(total, sum);
}

constexpr FastTrialKind kKinds[] = {FastTrialKind::Iid, FastTrialKind::Block,
                                    FastTrialKind::Structured, FastTrialKind::Hybrid};

// The kernel of a plan kind, as a function pointer (for the occupancy and attribute queries).
using LeafKernelFunction = void (*)(LeafKernelArgs, StoredSample*, unsigned long long*,
                                    unsigned long long);
LeafKernelFunction leafKernelFor(FastTrialKind kind) {
  return withFastTrialKind(
      kind, [](auto k) -> LeafKernelFunction { return leafKernel<decltype(k)::value>; });
}

struct DeviceProperties {
  cudaDeviceProp properties{};
  int residentBlocks[std::size(kKinds)] = {};  // per kind's kernel, over all multiprocessors
  int residentBlocksOf(FastTrialKind kind) const { return residentBlocks[static_cast<int>(kind)]; }
};

DeviceProperties deviceProperties() {
  DeviceProperties p;
  check(cudaSetDevice(0), "selecting device 0");
  check(cudaGetDeviceProperties(&p.properties, 0), "reading the device properties");
  for (FastTrialKind kind : kKinds) {
    int perMultiprocessor = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, leafKernelFor(kind),
                                                        kThreadsPerBlock, 0),
          "computing the occupancy");
    p.residentBlocks[static_cast<int>(kind)] =
        std::max(1, perMultiprocessor) * p.properties.multiProcessorCount;
  }
  return p;
}

class CudaLeafKernel final : public LeafKernel {
 public:
  CudaLeafKernel() : device_(deviceProperties()) {
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "creating a stream");
    selectedCount_.reserve(1);
  }
  ~CudaLeafKernel() override { cudaStreamDestroy(stream_); }

  std::string_view backendId() const override { return "cuda"; }
  std::string deviceDescription() const override {
    const cudaDeviceProp& p = device_.properties;
    return std::string(p.name) + " (compute " + std::to_string(p.major) + "." +
           std::to_string(p.minor) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
           std::to_string(p.totalGlobalMem >> 20) + " MiB)";
  }
  std::int64_t leavesToFill() const override {
    // The heaviest kernel's wave (the block kernels'); lighter ones fill more blocks per launch.
    return static_cast<std::int64_t>(device_.residentBlocksOf(FastTrialKind::Block)) *
           kLeavesPerBlock;
  }

  void computeLeaves(const LeafLaunch& launch, std::span<MomentAccumulator> moments,
                     std::vector<StoredSample>& selected) override {
    const FastTrialPlan& plan = *launch.plan;
    // One wave of blocks at most (the grid-stride loop covers the rest), fewer when the scratch
    // of a wave would exceed kMaxScratchBytes.
    const double scratchPerBlock =
        static_cast<double>(fastTrialScratchSize(plan)) * kThreadsPerBlock * sizeof(double);
    std::int64_t blocks =
        std::min<std::int64_t>(device_.residentBlocksOf(plan.kind),
                               (launch.leafCount + kLeavesPerBlock - 1) / kLeavesPerBlock);
    if (scratchPerBlock > 0)
      blocks = std::min<std::int64_t>(
          blocks,
          std::max<std::int64_t>(1, static_cast<std::int64_t>(kMaxScratchBytes / scratchPerBlock)));
    scratch_.reserve(static_cast<std::size_t>(blocks) * kThreadsPerBlock *
                     static_cast<std::size_t>(fastTrialScratchSize(plan)));
    axis1_.reserve(launch.axis1.size());
    axis2_.reserve(launch.axis2.size());
    copyToDevice(axis1_, launch.axis1);
    copyToDevice(axis2_, launch.axis2);
    moments_.reserve(moments.size());

    // Room for twice the expected number of selected trials (plus slack); a launch that selects
    // more runs again with room for all of them.
    const double trials = static_cast<double>(launch.leafCount) * kTrialsPerLeaf;
    const double fraction = static_cast<double>(launch.range.selectionThreshold) * 0x1.0p-64;
    auto capacity = static_cast<unsigned long long>(2 * trials * fraction + 256);
    for (;;) {
      selected_.reserve(capacity);
      check(cudaMemsetAsync(selectedCount_.data(), 0, sizeof(unsigned long long), stream_),
            "clearing the sample counter");
      LeafKernelArgs args;
      args.plan = plan;
      args.axis1 = axis1_.data();
      args.axis2 = axis2_.data();
      args.scratch = scratch_.data();
      args.blocks = blocks;
      args.range = launch.range;
      args.leafCount = launch.leafCount;
      args.moments = moments_.data();
      leafKernelFor(plan.kind)<<<static_cast<unsigned>(blocks), kThreadsPerBlock, 0, stream_>>>(
          args, selected_.data(), selectedCount_.data(), capacity);
      check(cudaGetLastError(), "launching the trial kernel");
      unsigned long long count = 0;
      check(cudaMemcpyAsync(&count, selectedCount_.data(), sizeof count, cudaMemcpyDeviceToHost,
                            stream_),
            "reading the sample counter");
      check(cudaStreamSynchronize(stream_), "running the trial kernel");
      if (count > capacity) {
        capacity = count;
        continue;
      }
      check(cudaMemcpyAsync(moments.data(), moments_.data(),
                            moments.size() * sizeof(MomentAccumulator), cudaMemcpyDeviceToHost,
                            stream_),
            "reading the leaf moments");
      const std::size_t first = selected.size();
      selected.resize(first + count);
      check(cudaMemcpyAsync(selected.data() + first, selected_.data(), count * sizeof(StoredSample),
                            cudaMemcpyDeviceToHost, stream_),
            "reading the selected trials");
      check(cudaStreamSynchronize(stream_), "reading the results");
      return;
    }
  }

  ThroughputBound measureBound(const FastTrialPlan& plan, std::int64_t trials) {
    ThroughputBound bound;
    bound.draws = fastTrialRandomDraws(plan);
    DeviceBuffer<double> total;
    total.reserve(1);
    check(cudaMemsetAsync(total.data(), 0, sizeof(double), stream_), "clearing the sum");
    cudaEvent_t start = nullptr, stop = nullptr;
    check(cudaEventCreate(&start), "creating an event");
    check(cudaEventCreate(&stop), "creating an event");
    check(cudaEventRecord(start, stream_), "recording an event");
    drawBoundKernel<<<static_cast<unsigned>(device_.residentBlocksOf(plan.kind)), kThreadsPerBlock,
                      0, stream_>>>(plan.spec().seed, trials, bound.draws, total.data());
    check(cudaGetLastError(), "launching the bound kernel");
    check(cudaEventRecord(stop, stream_), "recording an event");
    check(cudaMemcpyAsync(&bound.checksum, total.data(), sizeof(double), cudaMemcpyDeviceToHost,
                          stream_),
          "reading the sum");
    check(cudaStreamSynchronize(stream_), "running the bound kernel");
    float milliseconds = 0;
    check(cudaEventElapsedTime(&milliseconds, start, stop), "timing the bound kernel");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    bound.seconds = milliseconds * 1e-3;
    return bound;
  }

 private:
  void copyToDevice(DeviceBuffer<double>& to, std::span<const double> from) {
    if (from.empty()) return;
    check(cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(double),
                          cudaMemcpyHostToDevice, stream_),
          "copying the pair's frame");
  }

  DeviceProperties device_;
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<double> scratch_, axis1_, axis2_;
  DeviceBuffer<MomentAccumulator> moments_;
  DeviceBuffer<StoredSample> selected_;
  DeviceBuffer<unsigned long long> selectedCount_;
};

// Whether a device is there and can run the kernels compiled into this build.
bool deviceUsable(std::string* reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorInsufficientDriver) {
    if (reason)
      *reason = "no NVIDIA driver, or one older than this build's CUDA " +
                std::to_string(CUDART_VERSION / 1000) + " runtime";
    return false;
  }
  if (status != cudaSuccess || count == 0) {
    if (reason)
      *reason = std::string("no CUDA device: ") +
                (status != cudaSuccess ? cudaGetErrorString(status) : "none found");
    return false;
  }
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, leafKernelFor(FastTrialKind::Block)) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    if (reason)
      *reason = "the CUDA code in this build was compiled for other GPU architectures (" +
                std::string(RFSCOPE_CUDA_ARCHITECTURES) +
                "): rebuild with -DCMAKE_CUDA_ARCHITECTURES=native";
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<LeafKernel> makeCudaLeafKernel(std::string* reason) {
  if (!deviceUsable(reason)) return nullptr;
  try {
    return std::make_unique<CudaLeafKernel>();
  } catch (const std::exception& e) {
    if (reason) *reason = e.what();
    return nullptr;
  }
}

std::optional<ThroughputBound> measureCudaThroughputBound(const FastTrialPlan& plan,
                                                          std::int64_t trials,
                                                          std::string* reason) {
  if (!deviceUsable(reason)) return std::nullopt;
  try {
    CudaLeafKernel kernel;
    return kernel.measureBound(plan, trials);
  } catch (const std::exception& e) {
    if (reason) *reason = e.what();
    return std::nullopt;
  }
}

}  // namespace rfscope
