#include <cstdio>
__global__ void S(int*p){*p=0;}
__global__ void C(cudaGraphConditionalHandle h,int*c){int n=++*c;cudaGraphSetConditional(h,n<4);}
__global__ void A(int*p){*p+=100;}
int main(){int*d;cudaMalloc(&d,16);cudaStream_t s,t;cudaStreamCreateWithFlags(&s,1);cudaStreamCreateWithFlags(&t,1);
cudaStreamBeginCapture(s,cudaStreamCaptureModeGlobal);S<<<1,1,0,s>>>(d);
cudaStreamCaptureStatus st;cudaGraph_t g=0;const cudaGraphNode_t*dp=0;size_t nd=0;
printf("info %s",cudaGetErrorName(cudaStreamGetCaptureInfo(s,&st,0,&g,&dp,0,&nd)));printf(" st %d nd %zu\n",(int)st,nd);
cudaGraphConditionalHandle h;printf("hc %s\n",cudaGetErrorName(cudaGraphConditionalHandleCreate(&h,g,1,1)));
cudaGraphNodeParams p{};p.type=cudaGraphNodeTypeConditional;p.conditional.handle=h;p.conditional.type=cudaGraphCondTypeWhile;p.conditional.size=1;cudaGraphNode_t w;
printf("add %s\n",cudaGetErrorName(cudaGraphAddNode(&w,g,dp,0,nd,&p)));cudaGraph_t b=p.conditional.phGraph_out[0];
printf("upd %s\n",cudaGetErrorName(cudaStreamUpdateCaptureDependencies(s,&w,0,1,1)));
printf("b2g %s\n",cudaGetErrorName(cudaStreamBeginCaptureToGraph(t,b,0,0,0,cudaStreamCaptureModeRelaxed)));
C<<<1,1,0,t>>>(h,d);cudaGraph_t o=0;printf("end2 %s",cudaGetErrorName(cudaStreamEndCapture(t,&o)));printf(" same %d\n",o==b);
A<<<1,1,0,s>>>(d);cudaGraph_t cg=0;printf("end %s",cudaGetErrorName(cudaStreamEndCapture(s,&cg)));printf(" same %d\n",cg==g);
size_t n=0,nb=0;cudaGraphGetNodes(cg,0,&n);cudaGraphGetNodes(b,0,&nb);cudaGraphExec_t x;printf("inst %s n %zu nb %zu\n",cudaGetErrorName(cudaGraphInstantiate(&x,cg,0)),n,nb);
for(int i=0;i<2;i++){cudaGraphLaunch(x,s);cudaStreamSynchronize(s);int v;cudaMemcpy(&v,d,4,cudaMemcpyDeviceToHost);printf("v %d\n",v);}
printf("last %s\n",cudaGetErrorName(cudaGetLastError()));return 0;}
