// Launch geometry (%nctaid, %ntid) for the geometry test: each kernel stores
// the six values. Regenerate geometry.ptx with:
//   nvcc -ptx -arch=sm_90 geometry.cu -o geometry.ptx
extern "C" __global__ void geometry(unsigned *out) {
  out[0] = gridDim.x;
  out[1] = gridDim.y;
  out[2] = gridDim.z;
  out[3] = blockDim.x;
  out[4] = blockDim.y;
  out[5] = blockDim.z;
}
